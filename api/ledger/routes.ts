/**
 * The ledger family's operations, by key: each key's handler is defined in the file named for what
 * it serves (receipts and the ledger, /verify, witnesses).
 */
import { bind } from '../route.ts';
import { receiptHandlers } from './receipt-handlers.ts';
import { verifyHandlers } from './verify-handlers.ts';
import { witnessHandlers } from './witness-handlers.ts';

export const ledgerRoutes = [
  ...bind(receiptHandlers, [
    'GET /api/receipt/{id}',
    'GET /receipt/{id}',
    'GET /receipt/{id}/feed.xml',
    'GET /receipt/{id}/card.svg',
    'GET /receipt/sov{release}-fixture/card.svg',
    'GET /ledger',
    'GET /ledger/{id}',
    'GET /api/transparency',
  ]),
  ...bind(verifyHandlers, [
    'GET /verify/{id}',
    'GET /verify/inclusion/{date}/{id}',
    'GET /verify/inclusion-batch/{date}',
    'GET /verify/anchor/{date}',
    'GET /verify/anchor-chain',
    'GET /verify/court/{id}',
  ]),
  ...bind(witnessHandlers, [
    'POST /api/witness/mark',
    'GET /witness',
    'GET /witness/feed.xml',
    'GET /witness/receipt/{token}',
  ]),
];
