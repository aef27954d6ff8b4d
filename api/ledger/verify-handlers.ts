/**
 * /verify: a receipt's verification, its inclusion proof alone or a day's leaves in a batch, a
 * day's anchor, the anchor chain, and a court verdict's receipt. Bound by key in
 * api/ledger/routes.ts.
 */
import { defineRoute, type RouteRequest } from '../route.ts';
import { Refusal } from '../../shared/errors.ts';
import { anchorRows, wireAnchor } from './anchors.ts';
import { anchorChainVerification } from './chain.ts';
import { decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import { dayLeavesPage, dayState } from './log-days.ts';
import { receiptById, logKeyName } from './log.ts';
import { signedHead } from './proofs.ts';
import { anchorView, receiptOr404, verificationDocument, verificationView } from './projection.ts';
import { subjectReceipt } from './subjects.ts';

async function verifyReceipt(request: RouteRequest<'GET /verify/{id}'>) {
  const { id } = request.input.params;
  const ctx = request.server.civitas;
  return verificationDocument(ctx, id);
}

async function inclusion(request: RouteRequest<'GET /verify/inclusion/{date}/{id}'>) {
  const { date, id } = request.input.params;
  const ctx = request.server.civitas;
  const row = await receiptById(ctx.db, id);
  if (!row || row.log_date !== date) {
    throw new Refusal(
      'not_found',
      { id, date },
      row
        ? `That receipt is a leaf of ${row.log_date}, not ${date}: see /verify/inclusion/${row.log_date}/${id}.`
        : 'No receipt is recorded under that id.',
    );
  }
  const view = await verificationView(ctx, row);
  if (!view.proof)
    throw new Refusal(
      'conflict',
      { id },
      'An earlier leaf of this day is still being written; ask again in a moment.',
    );
  return { ok: true as const, ...view.proof, receipt: view.receipt };
}

async function inclusionBatch(request: RouteRequest<'GET /verify/inclusion-batch/{date}'>) {
  const { date } = request.input.params;
  const { offset, limit } = request.input.query;
  const ctx = request.server.civitas;
  const page = await dayLeavesPage(ctx, date, offset, limit);
  if (!page) throw new Refusal('not_found', { date }, 'No receipt was recorded on that UTC day.');
  const anchor = page.sealed ? await anchorView(ctx, date) : null;
  return {
    ok: true as const,
    date,
    tree_size: page.head.size,
    root_hash: page.head.root_hash,
    sealed: page.sealed,
    anchor: anchor ? wireAnchor(anchor as never) : null,
    head: page.sealed ? null : await signedHead(ctx, date, page.head),
    offset,
    leaves: page.leaves,
    next:
      offset + limit < page.head.size
        ? `/verify/inclusion-batch/${date}?offset=${offset + limit}&limit=${limit}`
        : null,
    how: "Hash the leaves (leaf_hash, in leaf_index order) into an RFC 9162 Merkle tree; its root must equal root_hash, and for a sealed day the anchor's root_hash.",
  };
}

async function anchor(request: RouteRequest<'GET /verify/anchor/{date}'>) {
  const { date } = request.input.params;
  const ctx = request.server.civitas;
  const view = await anchorView(ctx, date);
  if (view) return view;
  const state = await dayState(ctx.db, date);
  throw new Refusal(
    'not_found',
    { date },
    state
      ? 'That day is not sealed yet: days are sealed into anchors after they end (UTC). Until then /verify/inclusion-batch/{date} shows its signed head.'
      : 'No receipt was recorded on that UTC day, so it has no anchor.',
  );
}

/** The anchors' order on /verify/anchor-chain: newest day first, a page at a time. */
const ANCHOR_ORDER: KeyOrder = {
  path: '/verify/anchor-chain',
  columns: [{ sql: 'date', type: 'date' }],
  order: 'desc',
};

/**
 * /verify/anchor-chain: the whole chain's verification (from the stored verified point: only the
 * anchors sealed since are read and verified, api/ledger/chain.ts) and one page of its anchors,
 * newest first, read by key.
 */
async function anchorChain(request: RouteRequest<'GET /verify/anchor-chain'>) {
  const { limit, after } = request.input.query;
  const cursor = decodeCursor(ANCHOR_ORDER, after);
  const ctx = request.server.civitas;
  const verification = await anchorChainVerification(ctx);
  const clause = keyClause(ANCHOR_ORDER, cursor, 1);
  const rows = await anchorRows(ctx.db, clause.where, clause.orderBy, clause.params, limit + 1);
  const page = pageOf(rows, limit, cursor, (a) => [a.date]);
  return {
    ok: true as const,
    key_name: logKeyName(ctx),
    length: verification.length,
    genesis: '0'.repeat(64),
    head: verification.head,
    verification,
    anchors: page.rows.map((a) => ({ ...wireAnchor(a), anchor_hash: a.anchor_hash, sealed_at: a.sealed_at })),
    ...pageFields(ANCHOR_ORDER, page, limit, { limit }),
  };
}

/** /verify/court/{id}: a case's final verdict receipt (api/governance/verdicts.ts), verified like /verify/{id}. */
async function court(request: RouteRequest<'GET /verify/court/{id}'>) {
  const { id } = request.input.params;
  const ctx = request.server.civitas;
  const verdict = await subjectReceipt('court', ctx.db, id);
  const view = await verificationView(ctx, await receiptOr404(ctx, verdict.receipt_id));
  return { ...view, court: verdict.subject };
}

export const verifyHandlers = [
  defineRoute('GET /verify/{id}', { handler: verifyReceipt }),
  defineRoute('GET /verify/inclusion/{date}/{id}', { handler: inclusion }),
  defineRoute('GET /verify/inclusion-batch/{date}', { handler: inclusionBatch }),
  defineRoute('GET /verify/anchor/{date}', { handler: anchor }),
  defineRoute('GET /verify/anchor-chain', { handler: anchorChain, page: true }),
  defineRoute('GET /verify/court/{id}', { handler: court }),
];
