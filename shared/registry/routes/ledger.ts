import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, asset, feed, mutation, page } = family('ledger');

/** The ledger: receipts, the daily Merkle log, anchors, proofs and witnesses. */
export const LEDGER_ROUTES: RouteShape[] = [
  page(
    '/receipt/{id}',
    'A receipt: the step recorded, its subject (public form), time, leaf hash and the change status beside it',
  ),
  page('/receipt/missing', 'Shown for a receipt id that is not recorded, with how to check an id'),
  api(
    '/api/receipt/{id}',
    'A receipt as JSON: id, step, subject, recorded_at, leaf_hash, log position and change_status',
  ),
  page('/ledger', 'The ledger: recent receipts and sealed days of the transparency log'),
  page('/ledger/{id}', 'One ledger entry (a receipt in log context: its day, leaf index and neighbours)'),
  page('/ledger/missing', 'Shown for a ledger entry that does not exist'),
  api(
    '/api/transparency',
    'Transparency report: receipts and denial receipts by kind, anchors sealed, witness marks (no actor ids)',
  ),
  api('/verify/{id}', "Verify a receipt: its leaf, inclusion in its day's tree and the anchor when sealed"),
  api(
    '/verify/anchor/{date}',
    'The signed anchor of a UTC day: tree size, root hash, previous anchor hash, signature, checkpoint',
  ),
  api('/verify/court/{id}', "A court verdict's receipt and its verification"),
  api('/verify/inclusion-batch/{date}', "A day's leaves and root, for verifying many receipts at once"),
  api('/verify/inclusion/{date}/{id}', "A receipt's RFC 9162 inclusion proof in its day's tree", {
    refuses: { GET: ['conflict'] },
  }),
  page(
    '/verify/anchor-chain',
    'The chain of sealed anchors, each linked to the previous by hash, with its verification',
  ),
  mutation('/api/witness/mark', "A witness co-signs a day's anchor with its registered key", {
    refuses: { POST: ['conflict', 'not_found'] },
  }),
  feed('/receipt/{id}/feed.xml', 'Atom feed of status changes of the order a receipt recorded'),
  asset('/receipt/{id}/card.svg', 'Proof card of a receipt'),
  asset(
    '/receipt/sov{release}-fixture/card.svg',
    'Fixture proof card for a release (a receipt card of known content, used to check card rendering)',
  ),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page('/witness', 'Witnesses: who co-signs the daily anchors, their latest marks, and how to become one'),
  feed(
    '/witness/feed.xml',
    'Atom feed of sealed daily anchors with their checkpoints, for witnesses to verify and co-sign',
  ),
  page(
    '/witness/receipt/{token}',
    "Redeem a witness's one-time receipt link: shows its co-signature receipt and sets the witness credential cookie (never cached)",
  ),
];
