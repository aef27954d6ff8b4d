/**
 * Witnesses: marking an anchor, the /witness page, the feed of sealed anchors to co-sign, and a
 * mark's receipt link (which keeps the mark in this browser's cookie). Bound by key in
 * api/ledger/routes.ts.
 */
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { atomFeed } from '../feeds.ts';
import { defineRoute, type RouteRequest } from '../route.ts';
import { renderPage } from '../pages.ts';
import { Refusal } from '../../shared/errors.ts';
import { newestAnchors } from './anchors.ts';
import { receiptById } from './log.ts';
import { receiptView } from './projection.ts';
import { WITNESS_COOKIE, markWitness, witnessByToken, witnessView } from './witness.ts';
import { count } from '../../shared/plural.ts';

/** Anchors in the witness feed: the newest 100 days (a feed is bounded; older days stay at /verify/anchor/{date}). */
const WITNESS_FEED_ANCHORS = 100;

async function witnessFeed(request: FastifyRequest, reply: FastifyReply) {
  const ctx = request.server.civitas;
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

async function witnessMark(request: RouteRequest<'POST /api/witness/mark'>) {
  return markWitness(request.server.civitas, request.input.body);
}

async function witnessPage(request: RouteRequest<'GET /witness'>) {
  const ctx = request.server.civitas;
  const token = request.cookies?.[WITNESS_COOKIE];
  const you = token ? await witnessByToken(ctx, token) : null;
  return witnessView(ctx, you?.witness ?? null, request.input.query);
}

const tokenParam = z.object({
  token: z.string().regex(/^wt_[A-Za-z0-9_-]{43}$/, 'token must be a witness receipt token (wt_…)'),
});

/** The witness mark a receipt link names, or null; a known one is kept in this browser's cookie. */
async function witnessMarkOf(request: FastifyRequest, reply: FastifyReply) {
  const ctx = request.server.civitas;
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
  const ctx = request.server.civitas;
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

export const witnessHandlers = [
  defineRoute('POST /api/witness/mark', { handler: witnessMark }),
  defineRoute('GET /witness', { handler: witnessPage, page: true }),
  defineRoute('GET /witness/feed.xml', { handler: witnessFeed }),
  defineRoute('GET /witness/receipt/{token}', {
    handler: witnessReceipt,
    page: witnessReceiptPage,
  }),
];
