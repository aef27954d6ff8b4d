/**
 * The receipts and the ledger: a receipt's JSON and page, its status feed and cards, /ledger and
 * its entries, and /api/transparency. Bound by key in api/ledger/routes.ts.
 */
import type { FastifyReply } from 'fastify';
import { atomFeed } from '../feeds.ts';
import { defineRoute, type RouteRequest } from '../route.ts';
import { dayState } from './log-days.ts';
import { neighbours } from './log.ts';
import { ledgerView } from './ledger-view.ts';
import { receiptDocument, receiptOr404, receiptView, subjectTimeline } from './projection.ts';
import { transparencyReport } from './transparency.ts';
import { fixtureReceiptCard, receiptCard } from './cards.ts';

/** GET /api/receipt/{id}, and the JSON of the /receipt/{id} page: one contract, one answer. */
async function receiptJson(request: RouteRequest<'GET /api/receipt/{id}' | 'GET /receipt/{id}'>) {
  const { id } = request.input.params;
  const ctx = request.server.civitas;
  return receiptDocument(ctx, id);
}

async function ledgerEntry(request: RouteRequest<'GET /ledger/{id}'>) {
  const { id } = request.input.params;
  const ctx = request.server.civitas;
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
  const ctx = request.server.civitas;
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

async function card(request: RouteRequest<'GET /receipt/{id}/card.svg'>, reply: FastifyReply) {
  const { id } = request.input.params;
  const ctx = request.server.civitas;
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

export const receiptHandlers = [
  defineRoute('GET /api/receipt/{id}', { handler: receiptJson }),
  defineRoute('GET /receipt/{id}', { handler: receiptJson, page: true }),
  defineRoute('GET /receipt/{id}/feed.xml', { handler: receiptFeed }),
  defineRoute('GET /receipt/{id}/card.svg', { handler: card }),
  defineRoute('GET /receipt/sov{release}-fixture/card.svg', { handler: fixtureCard }),
  defineRoute('GET /ledger', {
    handler: (request) => ledgerView(request.server.civitas, request.input.query),
    page: true,
  }),
  defineRoute('GET /ledger/{id}', { handler: ledgerEntry, page: true }),
  defineRoute('GET /api/transparency', {
    handler: async (request) => transparencyReport(request.server.civitas),
  }),
];
