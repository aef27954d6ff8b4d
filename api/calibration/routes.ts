import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { atomFeed } from '../feeds.ts';
import ical from 'ical-generator';
import { bind, defineRoute } from '../route.ts';
import { Refusal } from '../../shared/errors.ts';
import type { answerInput } from '../../shared/calibration/contract.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { DUE_DAYS_MAX, DUE_DAYS_MIN } from '../../shared/calibration/scores.ts';
import { makeProphecy, prophecyList } from './prophecies.ts';
import { makePact, stakeOnPact } from './pacts.ts';
import { answerPact } from './pact-answers.ts';
import { sessionOf } from '../plugins/session.ts';
import { almanacView, calibrationView, prophecyView, streaks } from './views.ts';
import { cardHandlers } from './card-handlers.ts';

const DAY_MS = 86_400_000;

/** The due time from `due_in_days` or `due_at`: one of them, 1..365 days ahead. */
export function dueFrom(input: { due_in_days?: number; due_at?: string }, now: Date): Date {
  const issue = (message: string) =>
    new Refusal('invalid_request', { issues: [{ path: 'due_at', message }] });
  if (input.due_in_days !== undefined && input.due_at !== undefined)
    throw issue('Send due_in_days or due_at, not both.');
  if (input.due_in_days !== undefined) return new Date(now.getTime() + input.due_in_days * DAY_MS);
  if (input.due_at === undefined)
    throw issue(`Send due_in_days (${DUE_DAYS_MIN}..${DUE_DAYS_MAX}) or due_at (an ISO date).`);
  const text = /^\d{4}-\d{2}-\d{2}$/.test(input.due_at) ? `${input.due_at}T00:00:00Z` : input.due_at;
  const at = /^\d{4}-\d{2}-\d{2}T/.test(text) ? new Date(text) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime()))
    throw issue('due_at is an ISO date such as 2027-03-01 or 2027-03-01T12:00:00Z.');
  const ahead = at.getTime() - now.getTime();
  if (ahead < DUE_DAYS_MIN * DAY_MS || ahead > DUE_DAYS_MAX * DAY_MS)
    throw issue(`due_at must be ${DUE_DAYS_MIN} to ${DUE_DAYS_MAX} days ahead.`);
  return at;
}

async function answerDoor<By extends 'author' | 'steward'>(
  request: FastifyRequest,
  reply: FastifyReply,
  by: By,
  input: z.output<typeof answerInput>,
) {
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '/almanac') : '/almanac';
  const result = await answerPact(request.server.civitas, {
    pact: input.pact,
    outcome: input.outcome,
    by,
    authorId: sessionOf(request).sovereignId,
  });
  if (form)
    return seeOther(reply, withQuery(target, { answered: result.pact_id, receipt: result.receipt_id }));
  return result;
}

export const calibrationRoutes = [
  defineRoute('POST /steward/pacts', {
    handler: (request, reply) => answerDoor(request, reply, 'steward', request.input.body),
  }),
  defineRoute('POST /sovereign/prophecy', {
    async handler(request, reply) {
      const input = request.input.body;
      const ctx = request.server.civitas;
      const form = isFormPost(request);
      const target = form ? returnTarget(input.return_to, '/prophecy') : '/prophecy';
      const due_at = dueFrom(input, ctx.clock.now());
      const result = await makeProphecy(ctx, sessionOf(request), { ...input, due_at });
      if (form)
        return seeOther(reply, withQuery(target, { made: result.prophecy_id, receipt: result.receipt_id }));
      return result;
    },
  }),
  defineRoute('POST /sovereign/pact', {
    async handler(request, reply) {
      // Two doors in one: the contract held the body to the door it chose (`outcome` answers).
      const input = request.input.body;
      const { pact, outcome, title, stake } = input;
      if (outcome !== undefined)
        return answerDoor(request, reply, 'author', { pact: pact!, outcome, return_to: input.return_to });
      const ctx = request.server.civitas;
      const form = isFormPost(request);
      const target = form ? returnTarget(input.return_to, '/almanac') : '/almanac';
      const due_at = dueFrom(input, ctx.clock.now());
      const result = await makePact(ctx, sessionOf(request), {
        ...input,
        title: title!,
        stake: stake!,
        due_at,
      });
      if (form)
        return seeOther(reply, withQuery(target, { pact: result.pact_id, receipt: result.receipt_id }));
      return result;
    },
  }),
  defineRoute('POST /sovereign/pact/stake', {
    async handler(request, reply) {
      const input = request.input.body;
      const form = isFormPost(request);
      const target = form ? returnTarget(input.return_to, '/almanac') : '/almanac';
      const result = await stakeOnPact(request.server.civitas, sessionOf(request), input);
      if (form)
        return seeOther(reply, withQuery(target, { staked: result.pact_id, receipt: result.receipt_id }));
      return result;
    },
  }),

  defineRoute('GET /api/calibration', {
    handler: async (request) => calibrationView(request.server.civitas),
  }),
  defineRoute('GET /calibration', {
    handler: (request) => calibrationView(request.server.civitas),
    page: true,
  }),
  defineRoute('GET /prophecy', { handler: (request) => prophecyView(request.server.civitas), page: true }),
  defineRoute('GET /almanac', { handler: (request) => almanacView(request.server.civitas), page: true }),

  defineRoute('GET /almanac.ics', {
    async handler(request, reply) {
      const ctx = request.server.civitas;
      const view = await almanacView(ctx, 500);
      const origin = ctx.config.origin;
      const calendar = ical({
        name: 'civitas — almanac',
        prodId: { company: 'civitas', product: 'almanac' },
      });
      for (const item of view.due) {
        const start = new Date(item.due_at);
        calendar.createEvent({
          id: `${item.id}@civitas`,
          start,
          end: new Date(start.getTime() + 15 * 60_000),
          summary: item.kind === 'prophecy' ? `Prophecy due: ${item.title}` : `Pact due: ${item.title}`,
          description: `${item.kind === 'prophecy' ? 'A prophecy' : 'A pact'} by ${item.by.display}. ${view.scope}`,
          url: `${origin}/almanac#${item.id}`,
          stamp: new Date(item.made_at),
        });
      }
      return reply.header('content-type', 'text/calendar; charset=utf-8').send(calendar.toString());
    },
  }),
  defineRoute('GET /almanac.xml', {
    async handler(request, reply) {
      const ctx = request.server.civitas;
      const origin = ctx.config.origin;
      const resolved = await prophecyList(ctx.db, 'resolved', 100);
      const feed = atomFeed(ctx, {
        title: 'civitas — almanac: prophecies answered',
        description:
          'Prophecies about civitas itself, as they resolve. Calibration measures predictions about the service; it does not establish accuracy for any outside decision.',
        id: `${origin}/almanac.xml`,
        link: `${origin}/almanac`,
        copyright: 'Public record of civitas',
        feedLinks: { atom: `${origin}/almanac.xml` },
      });
      for (const p of resolved) {
        feed.addItem({
          title: `${p.outcome ? 'Came true' : 'Did not come true'}: ${p.statement} (${Math.round(p.probability * 100)}%)`,
          id: `${origin}/almanac.xml#${p.id}`,
          link: `${origin}${p.links.answered}`,
          date: new Date(p.resolved_at as string),
          description: `A prophecy by ${p.forecaster.display} at probability ${p.probability}; observed ${p.observed}. Receipt ${p.resolution_receipt_id}.`,
        });
      }
      return reply.header('content-type', 'application/atom+xml; charset=utf-8').send(feed.atom1());
    },
  }),
  defineRoute('GET /streaks.xml', {
    async handler(request, reply) {
      const ctx = request.server.civitas;
      const origin = ctx.config.origin;
      const list = await streaks(ctx);
      const feed = atomFeed(ctx, {
        title: 'civitas — streaks',
        description:
          'Runs of at least two prophecies that leaned the right way, and of kept pacts, per forecaster (public refs only).',
        id: `${origin}/streaks.xml`,
        link: `${origin}/almanac`,
        copyright: 'Public record of civitas',
        feedLinks: { atom: `${origin}/streaks.xml` },
      });
      for (const s of list) {
        feed.addItem({
          title: `${s.actor.display}: ${s.length} ${s.kind === 'prophecies' ? 'prophecies leaning right' : 'kept pacts'} in a row`,
          id: `${origin}/streaks.xml#${s.actor.ref}-${s.kind}-${s.last_id}`,
          link: `${origin}/almanac/claim/${s.last_id}/answered.svg`,
          date: new Date(s.last_at),
          description: `Since ${s.since}; the latest was ${s.last_id}.`,
        });
      }
      return reply.header('content-type', 'application/atom+xml; charset=utf-8').send(feed.atom1());
    },
  }),

  // The cards (handlers in card-handlers.ts).
  ...bind(cardHandlers, [
    'GET /calibration/card.svg',
    'GET /prophecy/card.svg',
    'GET /almanac/card.svg',
    'GET /almanac/claim/{id}/card.svg',
    'GET /almanac/claim/{id}/answered.svg',
  ]),
];
