import { z } from 'zod';
import { atomFeed } from '../feeds.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute, type RouteRequest } from '../route.ts';
import { renderPage } from '../pages.ts';
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { anchorRows, newestAnchors, wireAnchor } from './anchors.ts';
import { anchorChainVerification } from './chain.ts';
import { decodeCursor, keyClause, pageLink, pageOf, type KeyOrder } from '../paging.ts';

/** Anchors in the witness feed: the newest 100 days (a feed is bounded; older days stay at /verify/anchor/{date}). */
const WITNESS_FEED_ANCHORS = 100;
import { dayLeavesPage, dayState } from './log-days.ts';
import { neighbours, receiptById, logKeyName } from './log.ts';
import { ledgerView } from './ledger-view.ts';
import { signedHead } from './proofs.ts';
import {
  anchorView,
  receiptDocument,
  receiptOr404,
  receiptView,
  subjectTimeline,
  verificationDocument,
  verificationView,
} from './projection.ts';
import { transparencyReport } from './transparency.ts';
import { fixtureReceiptCard, receiptCard } from './cards.ts';
import { WITNESS_COOKIE, markWitness, witnessByToken, witnessView } from './witness.ts';
import { subjectReceipt } from './subjects.ts';
import { count } from '../../shared/plural.ts';

function ctxOf(request: FastifyRequest): AppContext {
  return request.server.civitas;
}

/** GET /api/receipt/{id}, and the JSON of the /receipt/{id} page: one contract, one answer. */
async function receiptJson(request: RouteRequest<'GET /api/receipt/{id}' | 'GET /receipt/{id}'>) {
  const { id } = request.input.params;
  const ctx = ctxOf(request);
  return receiptDocument(ctx, id);
}

async function verifyReceipt(request: RouteRequest<'GET /verify/{id}'>) {
  const { id } = request.input.params;
  const ctx = ctxOf(request);
  return verificationDocument(ctx, id);
}

async function inclusion(request: RouteRequest<'GET /verify/inclusion/{date}/{id}'>) {
  const { date, id } = request.input.params;
  const ctx = ctxOf(request);
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
  const ctx = ctxOf(request);
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
  const ctx = ctxOf(request);
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
  const ctx = ctxOf(request);
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
    limit,
    next: pageLink(ANCHOR_ORDER.path, page.next, { limit }),
    previous: pageLink(ANCHOR_ORDER.path, page.previous, { limit }),
  };
}

/** /verify/court/{id}: a case's final verdict receipt (api/governance/verdicts.ts), verified like /verify/{id}. */
async function court(request: RouteRequest<'GET /verify/court/{id}'>) {
  const { id } = request.input.params;
  const ctx = ctxOf(request);
  const verdict = await subjectReceipt('court', ctx.db, id);
  const view = await verificationView(ctx, await receiptOr404(ctx, verdict.receipt_id));
  return { ...view, court: verdict.subject };
}

async function ledgerEntry(request: RouteRequest<'GET /ledger/{id}'>) {
  const { id } = request.input.params;
  const ctx = ctxOf(request);
  const row = await receiptOr404(ctx, id);
  const [receipt, around, day] = await Promise.all([
    receiptView(ctx, row),
    neighbours(ctx.db, row),
    dayState(ctx.db, row.log_date),
  ]);
  return {
    ok: true as const,
    receipt,
    day: { date: row.log_date, size: day?.size ?? 0, sealed: day?.sealed ?? false },
    neighbours: around,
    timeline: await subjectTimeline(ctx, row),
  };
}

async function receiptFeed(request: RouteRequest<'GET /receipt/{id}/feed.xml'>, reply: FastifyReply) {
  const { id } = request.input.params;
  const ctx = ctxOf(request);
  const row = await receiptOr404(ctx, id);
  const view = await receiptView(ctx, row);
  const timeline = await subjectTimeline(ctx, row);
  const origin = ctx.config.origin;
  const feed = atomFeed(ctx, {
    title: `civitas — status of ${view.subject}`,
    description: `Changes to the status of ${view.subject}, the subject of receipt ${id}. The receipt proves the step was recorded; these entries report what became of it.`,
    id: `${origin}/receipt/${id}/feed.xml`,
    link: `${origin}/receipt/${id}`,
    updated: new Date(timeline.at(-1)?.at ?? view.recorded_at),
    copyright: 'Public record of civitas',
    feedLinks: { atom: `${origin}/receipt/${id}/feed.xml` },
  });
  for (const entry of timeline) {
    feed.addItem({
      title: entry.title,
      id: `${origin}/receipt/${id}/feed.xml#${entry.status}-${entry.receipt_id ?? entry.at}`,
      link: entry.receipt_id ? `${origin}/receipt/${entry.receipt_id}` : `${origin}/receipt/${id}`,
      date: new Date(entry.at),
      description: entry.receipt_id ? `Receipt ${entry.receipt_id}: ${entry.status}` : entry.status,
    });
  }
  reply.header('content-type', 'application/atom+xml; charset=utf-8');
  return feed.atom1();
}

async function witnessFeed(request: FastifyRequest, reply: FastifyReply) {
  const ctx = ctxOf(request);
  const origin = ctx.config.origin;
  const anchors = await newestAnchors(ctx.db, WITNESS_FEED_ANCHORS);
  const feed = atomFeed(ctx, {
    title: 'civitas — sealed anchors for witnesses',
    description:
      'Each sealed UTC day of the civitas transparency log, with its C2SP checkpoint. Verify it and co-sign it with POST /api/witness/mark.',
    id: `${origin}/witness/feed.xml`,
    link: `${origin}/witness`,
    updated: new Date(anchors[0]?.sealed_at ?? 0),
    copyright: 'Public record of civitas',
    feedLinks: { atom: `${origin}/witness/feed.xml` },
  });
  for (const a of anchors) {
    feed.addItem({
      title: `Anchor ${a.date}: ${count(a.tree_size, 'receipt', 'receipts')}`,
      id: `${origin}/verify/anchor/${a.date}`,
      link: `${origin}/verify/anchor/${a.date}`,
      date: new Date(a.sealed_at),
      description: `root ${a.root_hash}, anchor hash ${a.anchor_hash}`,
      content: a.checkpoint,
    });
  }
  reply.header('content-type', 'application/atom+xml; charset=utf-8');
  return feed.atom1();
}

async function card(request: RouteRequest<'GET /receipt/{id}/card.svg'>, reply: FastifyReply) {
  const { id } = request.input.params;
  const ctx = ctxOf(request);
  const view = await receiptView(ctx, await receiptOr404(ctx, id));
  const state = await dayState(ctx.db, view.log!.date);
  reply.header('content-type', 'image/svg+xml');
  return receiptCard(view, state?.sealed ?? false);
}

async function fixtureCard(
  request: RouteRequest<'GET /receipt/sov{release}-fixture/card.svg'>,
  reply: FastifyReply,
) {
  const { release } = request.input.params;
  reply.header('content-type', 'image/svg+xml');
  return fixtureReceiptCard(release);
}

async function witnessMark(request: RouteRequest<'POST /api/witness/mark'>) {
  return markWitness(ctxOf(request), request.input.body);
}

async function witnessPage(request: RouteRequest<'GET /witness'>) {
  const ctx = ctxOf(request);
  const token = request.cookies?.[WITNESS_COOKIE];
  const you = token ? await witnessByToken(ctx, token) : null;
  return witnessView(ctx, you?.witness ?? null, request.input.query);
}

const tokenParam = z.object({
  token: z.string().regex(/^wt_[A-Za-z0-9_-]{43}$/, 'token must be a witness receipt token (wt_…)'),
});

/** The witness mark a receipt link names, or null; a known one is kept in this browser's cookie. */
async function witnessMarkOf(request: FastifyRequest, reply: FastifyReply) {
  const ctx = ctxOf(request);
  const parsed = tokenParam.safeParse(request.params);
  const mark = parsed.success ? await witnessByToken(ctx, parsed.data.token) : null;
  if (!mark) return null;
  // set_cookie_replay: the security-headers plugin makes every cookie-setting response private, no-store.
  reply.setCookie(WITNESS_COOKIE, parsed.data!.token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.origin.startsWith('https:'),
    path: '/',
    maxAge: 365 * 86400,
  });
  return mark;
}

/** The page (which says so itself when the link names no mark), after keeping a known mark's cookie. */
async function witnessReceiptPage(request: FastifyRequest, reply: FastifyReply) {
  await witnessMarkOf(request, reply);
  return renderPage(request, reply);
}

async function witnessReceipt(request: FastifyRequest, reply: FastifyReply) {
  const ctx = ctxOf(request);
  const mark = await witnessMarkOf(request, reply);
  if (!mark) {
    throw new Refusal(
      'not_found',
      {},
      'No witness mark has that receipt token. The link is given once, in the answer to POST /api/witness/mark.',
    );
  }
  const receipt = await receiptById(ctx.db, mark.receipt_id);
  return {
    ok: true as const,
    witness: mark.witness,
    date: mark.date,
    signature_line: mark.signature_line,
    marked_at: mark.marked_at,
    receipt: receipt ? await receiptView(ctx, receipt) : null,
  };
}

export const ledgerRoutes = [
  defineRoute('GET /api/receipt/{id}', { handler: receiptJson }),
  defineRoute('GET /receipt/{id}', { handler: receiptJson, page: true }),
  defineRoute('GET /receipt/{id}/feed.xml', { handler: receiptFeed }),
  defineRoute('GET /receipt/{id}/card.svg', { handler: card }),
  defineRoute('GET /receipt/sov{release}-fixture/card.svg', { handler: fixtureCard }),
  defineRoute('GET /ledger', {
    handler: (request) => ledgerView(ctxOf(request), request.input.query),
    page: true,
  }),
  defineRoute('GET /ledger/{id}', { handler: ledgerEntry, page: true }),
  defineRoute('GET /api/transparency', { handler: async (request) => transparencyReport(ctxOf(request)) }),
  defineRoute('GET /verify/{id}', { handler: verifyReceipt }),
  defineRoute('GET /verify/inclusion/{date}/{id}', { handler: inclusion }),
  defineRoute('GET /verify/inclusion-batch/{date}', { handler: inclusionBatch }),
  defineRoute('GET /verify/anchor/{date}', { handler: anchor }),
  defineRoute('GET /verify/anchor-chain', { handler: anchorChain, page: true }),
  defineRoute('GET /verify/court/{id}', { handler: court }),
  defineRoute('POST /api/witness/mark', { handler: witnessMark }),
  defineRoute('GET /witness', { handler: witnessPage, page: true }),
  defineRoute('GET /witness/feed.xml', { handler: witnessFeed }),
  defineRoute('GET /witness/receipt/{token}', {
    handler: witnessReceipt,
    page: witnessReceiptPage,
  }),
];
