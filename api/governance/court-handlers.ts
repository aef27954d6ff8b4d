import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Feed } from 'feed';
import { atomFeed } from '../feeds.ts';
import { defineRoute, type RouteRequest } from '../route.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { sessionOf } from '../plugins/session.ts';
import { CASE_TARGET, JURORS_REQUIRED, actionWords } from '../../shared/governance/court.ts';
import { loadArticles, viewerOf } from './service.ts';
import { requireRatifier } from './amendments.ts';
import { ratifierOnly } from './guards.ts';
import { backPledge, makePledge, reviewPledge } from './pledges.ts';
import { codexView } from './codex.ts';
import { finalCases } from './cases.ts';
import { openCase, signVerdict } from './court.ts';
import { dissentView, precedentView, verdictsView } from './verdicts.ts';

function answer<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  next: string,
  flags: Record<string, string>,
  result: T,
): T | FastifyReply {
  if (isFormPost(request)) return seeOther(reply, withQuery(next, flags));
  return result;
}

/** Both doors (POST /sovereign/pledge and the page's POST /pledge) take the same body, parsed by the router. */
async function pledgeHandler(
  request: RouteRequest<'POST /sovereign/pledge' | 'POST /pledge'>,
  reply: FastifyReply,
) {
  const who = sessionOf(request);
  const input = request.input.body;
  const fallback = input.return_to;
  returnTarget(fallback, '/'); // a bad return_to is refused before anything is recorded
  const result = await makePledge(request.server.civitas, who, { article: input.article, text: input.text });
  return answer(
    request,
    reply,
    returnTarget(fallback, `/receipt/${result.receipt_id}`),
    { pledged: result.pledge.id },
    result,
  );
}

async function backHandler(request: RouteRequest<'POST /sovereign/pledge/back'>, reply: FastifyReply) {
  const who = sessionOf(request);
  const input = request.input.body;
  returnTarget(input.return_to, '/');
  const result = await backPledge(request.server.civitas, who, input.pledge);
  return answer(
    request,
    reply,
    returnTarget(input.return_to, `/receipt/${result.receipt_id}`),
    { backed: result.pledge.id },
    result,
  );
}

async function reviewHandler(request: RouteRequest<'POST /api/codex/pledges/review'>, reply: FastifyReply) {
  const ctx = request.server.civitas;
  const viewer = await viewerOf(ctx, request.sovereign);
  requireRatifier(request.sovereign, viewer);
  const input = request.input.body;
  returnTarget(input.return_to, '/');
  const result = await reviewPledge(ctx, viewer, input.pledge, input.outcome);
  return answer(
    request,
    reply,
    returnTarget(input.return_to, `/receipt/${result.receipt_id}`),
    { reviewed: result.pledge.id },
    result,
  );
}

async function courtSignHandler(request: RouteRequest<'POST /sovereign/court-sign'>, reply: FastifyReply) {
  const who = sessionOf(request);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/verdicts');
  const ctx = request.server.civitas;
  if (input.case === 'new') {
    const sequence = Number(CASE_TARGET.exec(input.target as string)![1]);
    const result = await openCase(ctx, who, { sequence, reason: input.reason });
    return answer(request, reply, next, { opened: result.case.id }, result);
  }
  const result = await signVerdict(ctx, who, {
    caseId: input.case_id as string,
    verdict: input.verdict!,
    reason: input.reason as string,
  });
  return answer(request, reply, next, { signed: result.case.id }, result);
}

function atom(reply: FastifyReply, feed: Feed) {
  return reply.header('content-type', 'application/atom+xml; charset=utf-8').send(feed.atom1());
}

export const courtHandlers = [
  defineRoute('GET /api/codex/pledges', {
    async handler(request) {
      return codexView(request.server.civitas, request.input.query);
    },
  }),
  defineRoute('POST /sovereign/pledge', { handler: pledgeHandler }),
  defineRoute('POST /pledge', {
    handler: pledgeHandler,
  }),
  defineRoute('POST /sovereign/pledge/back', { handler: backHandler }),
  defineRoute('POST /api/codex/pledges/review', {
    preHandler: ratifierOnly,
    handler: reviewHandler,
  }),
  defineRoute('POST /sovereign/court-sign', {
    handler: courtSignHandler,
  }),
  defineRoute('GET /api/court/precedent/{id}', {
    async handler(request) {
      return precedentView(request.server.civitas, request.input.params.id);
    },
  }),
  defineRoute('GET /api/verdicts', {
    async handler(request) {
      const ctx = request.server.civitas;
      return verdictsView(ctx, await viewerOf(ctx, request.sovereign), request.input.query);
    },
  }),
  defineRoute('GET /verdicts', {
    async handler(request) {
      const ctx = request.server.civitas;
      return verdictsView(ctx, await viewerOf(ctx, request.sovereign), request.input.query);
    },
    page: true,
  }),
  defineRoute('GET /api/dissent', {
    handler: (request) => dissentView(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /dissent', {
    handler: (request) => dissentView(request.server.civitas, request.input.query),
    page: true,
  }),
  defineRoute('GET /verdicts.xml', {
    async handler(request, reply) {
      const ctx = request.server.civitas;
      const origin = ctx.config.origin;
      const cases = await finalCases(ctx.db, undefined, 100);
      const feed = atomFeed(ctx, {
        title: 'civitas — court verdicts',
        description: `Final court verdicts: ${JURORS_REQUIRED} concurring juror signatures on a disputed steward decision. Jurors by public tag only.`,
        id: `${origin}/verdicts.xml`,
        link: `${origin}/verdicts`,
        updated: cases[0] ? new Date(cases[0].final_at as string) : ctx.clock.now(),
        copyright: 'Public record of civitas',
        feedLinks: { atom: `${origin}/verdicts.xml` },
      });
      for (const c of cases.sort((a, b) => String(b.final_at).localeCompare(String(a.final_at)))) {
        feed.addItem({
          title: `${c.outcome === 'overturn' ? 'Overturned' : 'Upheld'}: the steward's decision to ${actionWords(c.disputed.action)} (imprint #${c.sequence})`,
          id: `${origin}/verdicts.xml#${c.id}`,
          link: `${origin}/api/court/precedent/${c.precedent_id}`,
          date: new Date(c.final_at as string),
          description: `Case ${c.id} is final (${c.outcome}); it set ${c.precedent_id}. Verdict receipt ${c.final_receipt_id}, verifiable at ${origin}/verify/court/${c.id}.`,
        });
      }
      return atom(reply, feed);
    },
  }),
  defineRoute('GET /reversals.xml', {
    async handler(request, reply) {
      const ctx = request.server.civitas;
      const origin = ctx.config.origin;
      const overturned = await finalCases(ctx.db, 'overturn', 100);
      const articles = (await loadArticles(ctx.db)).filter((a) => a.amends);
      const items = [
        ...overturned.map((c) => ({
          title: `Overturned: the steward's decision to ${actionWords(c.disputed.action)} (imprint #${c.sequence})`,
          id: `${origin}/reversals.xml#${c.id}`,
          link: `${origin}/api/court/precedent/${c.precedent_id}`,
          date: new Date(c.final_at as string),
          description: `A jury overturned the triage decision (receipt ${c.disputed.receipt_id}) in case ${c.id}; verdict receipt ${c.final_receipt_id}.`,
        })),
        ...articles.map((a) => ({
          title: `Amended: ${a.amends} by ${a.id} — ${a.title}`,
          id: `${origin}/reversals.xml#${a.id}`,
          link: `${origin}/provenance/${a.id}`,
          date: new Date(a.ratified_at),
          description: `Article ${a.id} (ratified from proposal ${a.proposal_id}) amends ${a.amends}. Enactment receipt ${a.receipt_id}.`,
        })),
      ].sort((x, y) => y.date.getTime() - x.date.getTime());
      const feed = atomFeed(ctx, {
        title: 'civitas — reversals',
        description:
          'Overturned decisions: steward triage decisions a jury overturned, and ratified articles that amend an axiom or article.',
        id: `${origin}/reversals.xml`,
        link: `${origin}/verdicts`,
        updated: items[0]?.date ?? ctx.clock.now(),
        copyright: 'Public record of civitas',
        feedLinks: { atom: `${origin}/reversals.xml` },
      });
      for (const item of items) feed.addItem(item);
      return atom(reply, feed);
    },
  }),
];
