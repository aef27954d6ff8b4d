/**
 * The ledger operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import {
  ok,
  ledgerQuery,
  ledgerSchema,
  ledgerEntrySchema,
  anchorChainSchema,
  anchorChainQuery,
  witnessesQuery,
  witnessesSchema,
  witnessReceiptSchema,
} from '../schemas/ledger-pages.ts';
import {
  idParams,
  receiptViewSchema,
  count,
  verificationSchema,
  dateParams,
  releaseParams,
  anchorViewSchema,
  hex,
  anchorSchema,
  signedHeadSchema,
  inclusionProof,
  anchorDateSchema,
  witnessMarkAnswer,
} from '../schemas/ledger.ts';
import { operations } from '../operation.ts';

const { api, asset, feed, mutation, page } = operations('ledger');

/** The ledger: receipts, the daily Merkle log, anchors, proofs and witnesses. */
export const LEDGER_OPERATIONS = [
  page(
    '/receipt/{id}',
    'A receipt: the step recorded, its subject (public form), time, leaf hash and the change status beside it',
    {
      GET: {
        params: idParams,
        response: receiptViewSchema.extend({ ok }),
        // `?recorded=N`: the page answers one visitor's imprint form ("your imprint was recorded").
        policy: { cache: 'revalidate', page: { anonymous: 'public-1m', personalQuery: ['recorded'] } },
      },
    },
  ),
  page('/receipt/missing', 'Shown for a receipt id that is not recorded, with how to check an id', {
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
  api(
    '/api/receipt/{id}',
    'A receipt as JSON: id, step, subject, recorded_at, leaf_hash, log position and change_status',
    { GET: { params: idParams, response: receiptViewSchema.extend({ ok }), policy: { cache: 'public' } } },
  ),
  page('/ledger', 'The ledger: recent receipts and sealed days of the transparency log', {
    GET: {
      query: ledgerQuery,
      response: ledgerSchema,
      policy: { cache: 'revalidate', page: { anonymous: 'public-30s' } },
    },
  }),
  page('/ledger/{id}', 'One ledger entry (a receipt in log context: its day, leaf index and neighbours)', {
    GET: {
      params: idParams,
      response: ledgerEntrySchema,
      policy: { cache: 'revalidate', page: { anonymous: 'public-1m' } },
    },
  }),
  page('/ledger/missing', 'Shown for a ledger entry that does not exist', {
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
  api(
    '/api/transparency',
    'Transparency report: receipts and denial receipts by kind, anchors sealed, witness marks (no actor ids)',
    {
      GET: {
        response: z.looseObject({
          ok,
          schema: z.literal('civitas.transparency.v1'),
          generated_at: isoTime,
          receipts: z.looseObject({ total: count }),
          denials: z.looseObject({ total: count }),
          principle: z.string(),
        }),
      },
    },
  ),
  api('/verify/{id}', "Verify a receipt: its leaf, inclusion in its day's tree and the anchor when sealed", {
    GET: { params: idParams, response: verificationSchema },
  }),
  api(
    '/verify/anchor/{date}',
    'The signed anchor of a UTC day: tree size, root hash, previous anchor hash, signature, checkpoint',
    { GET: { params: dateParams, response: anchorViewSchema } },
  ),
  api('/verify/court/{id}', "A court verdict's receipt and its verification", {
    GET: {
      params: z.object({ id: z.string().min(1).max(200) }),
      response: verificationSchema.extend({
        court: z.unknown().describe('the court case the verdict closed'),
      }),
    },
  }),
  api('/verify/inclusion-batch/{date}', "A day's leaves and root, for verifying many receipts at once", {
    GET: {
      params: dateParams,
      query: z.object({
        offset: z.coerce.number().int().min(0).default(0),
        limit: z.coerce.number().int().min(1).max(10_000).default(1_000),
      }),
      response: z.object({
        ok,
        date: z.string(),
        tree_size: count,
        root_hash: hex,
        sealed: z.boolean(),
        anchor: anchorSchema.nullable(),
        head: signedHeadSchema.nullable(),
        offset: count,
        leaves: z.array(z.object({ leaf_index: count, id: z.string(), leaf_hash: hex })),
        next: z.string().nullable(),
        how: z.string(),
      }),
    },
  }),
  api('/verify/inclusion/{date}/{id}', "A receipt's RFC 9162 inclusion proof in its day's tree", {
    refuses: { GET: ['conflict'] },
    GET: {
      params: dateParams.extend(idParams.shape),
      response: inclusionProof.extend({ ok, receipt: receiptViewSchema }),
    },
  }),
  page(
    '/verify/anchor-chain',
    'The chain of sealed anchors, each linked to the previous by hash, with its verification',
    {
      GET: {
        query: anchorChainQuery,
        response: anchorChainSchema,
        policy: { cache: 'revalidate', page: { anonymous: 'public-1m' } },
      },
    },
  ),
  mutation('/api/witness/mark', "A witness co-signs a day's anchor with its registered key", {
    refuses: { POST: ['conflict', 'not_found'] },
    POST: {
      body: z.object({
        date: anchorDateSchema,
        witness: z.string().min(1).max(100),
        public_key: z.string().min(40).max(64),
        signature: z.string().min(10).max(400),
      }),
      response: witnessMarkAnswer,
    },
  }),
  feed('/receipt/{id}/feed.xml', 'Atom feed of status changes of the order a receipt recorded', {
    GET: {
      params: idParams,
      policy: { cache: 'public-1m' },
    },
  }),
  asset('/receipt/{id}/card.svg', 'Proof card of a receipt', {
    GET: {
      params: idParams,
      policy: { cache: 'public-5m' },
    },
  }),
  asset(
    '/receipt/sov{release}-fixture/card.svg',
    'Fixture proof card for a release (a receipt card of known content, used to check card rendering)',
    {
      GET: {
        params: releaseParams,
        policy: { cache: 'public-1d' },
      },
    },
  ),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page('/witness', 'Witnesses: who co-signs the daily anchors, their latest marks, and how to become one', {
    GET: {
      query: witnessesQuery,
      response: witnessesSchema,
      policy: { cache: { anonymous: 'revalidate' }, page: { anonymous: 'public-1m' } },
    },
  }),
  feed(
    '/witness/feed.xml',
    'Atom feed of sealed daily anchors with their checkpoints, for witnesses to verify and co-sign',
  ),
  page(
    '/witness/receipt/{token}',
    "Redeem a witness's one-time receipt link: shows its co-signature receipt and sets the witness credential cookie (never cached)",
    {
      GET: {
        // Not checked here: a token of the wrong form is answered like an unknown one (404), as the page says.
        params: z.object({
          token: z.string().describe('the witness receipt token (wt_…) given once by POST /api/witness/mark'),
        }),
        response: witnessReceiptSchema,
      },
    },
  ),
];
