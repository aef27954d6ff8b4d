import type { FastifyReply, FastifyRequest } from 'fastify';
import { bind, defineRoute, type RouteRequest } from '../route.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { axiomsView } from '../../shared/governance/axioms.ts';
import { constitutionView, viewerOf } from './service.ts';
import { cosign, propose, ratify, requireRatifier } from './amendments.ts';
import { abstentionsView } from './abstentions.ts';
import { ceremonyView, lineageView, provenanceIndex, provenanceOf } from './views.ts';
import { courtHandlers } from './court-handlers.ts';
import { ratifierOnly } from './guards.ts';
import { sessionOf } from '../plugins/session.ts';

/** JSON answer, or for a browser form a 303 back to a local page. */
function answer<T extends { proposal: { id: string } }>(
  request: FastifyRequest,
  reply: FastifyReply,
  next: string,
  result: T,
  flag: string,
) {
  if (isFormPost(request)) return seeOther(reply, withQuery(next, { [flag]: result.proposal.id }));
  return result;
}

async function proposeHandler(request: RouteRequest<'POST /api/constitution/propose'>, reply: FastifyReply) {
  const who = sessionOf(request);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/constitution');
  const result = await propose(request.server.civitas, who, {
    title: input.title,
    text: input.text,
    amends: input.amends,
  });
  return answer(request, reply, next, result, 'proposed');
}

async function cosignHandler(request: RouteRequest<'POST /api/constitution/cosign'>, reply: FastifyReply) {
  const who = sessionOf(request);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/constitution');
  const result = await cosign(request.server.civitas, who, input.proposal);
  return answer(request, reply, next, result, 'cosigned');
}

async function ratifyHandler(request: RouteRequest<'POST /api/constitution/ratify'>, reply: FastifyReply) {
  const ctx = request.server.civitas;
  const viewer = await viewerOf(ctx, request.sovereign);
  requireRatifier(request.sovereign, viewer);
  const input = request.input.body;
  const next = returnTarget(input.return_to, '/constitution');
  const result = await ratify(ctx, viewer, input.proposal);
  return answer(request, reply, next, result, 'ratified');
}

/** A page whose JSON twin is itself: JSON by Accept, else the Astro page (which reads that JSON). */
function pageWithJson<T>(view: (request: FastifyRequest) => Promise<T>) {
  return { handler: view, page: true as const };
}

async function constitutionForViewer(request: FastifyRequest) {
  const ctx = request.server.civitas;
  return constitutionView(ctx, await viewerOf(ctx, request.sovereign));
}

export const governanceRoutes = [
  defineRoute('GET /api/axioms', {
    handler() {
      return axiomsView();
    },
  }),
  defineRoute('GET /api/constitution', {
    async handler(request) {
      return constitutionForViewer(request);
    },
  }),
  defineRoute('GET /constitution', { ...pageWithJson(constitutionForViewer) }),
  defineRoute('POST /api/constitution/propose', {
    handler: proposeHandler,
  }),
  defineRoute('POST /api/constitution/cosign', {
    handler: cosignHandler,
  }),
  defineRoute('POST /api/constitution/ratify', {
    preHandler: ratifierOnly,
    handler: ratifyHandler,
  }),
  defineRoute('GET /lineage', {
    ...pageWithJson((request) => lineageView(request.server.civitas)),
  }),
  defineRoute('GET /provenance', {
    ...pageWithJson((request) => provenanceIndex(request.server.civitas)),
  }),
  defineRoute('GET /provenance/{claim}', {
    ...pageWithJson((request) =>
      provenanceOf(
        request.server.civitas,
        (request as RouteRequest<'GET /provenance/{claim}'>).input.params.claim,
      ),
    ),
  }),
  defineRoute('GET /api/abstentions', {
    handler: (request) => abstentionsView(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /abstentions', {
    ...pageWithJson((request) =>
      abstentionsView(request.server.civitas, (request as RouteRequest<'GET /abstentions'>).input.query),
    ),
  }),
  defineRoute('GET /ceremony', {
    ...pageWithJson(async (request) => {
      const ctx = request.server.civitas;
      return ceremonyView(ctx, await viewerOf(ctx, request.sovereign));
    }),
  }),
  // The court: pledges, cases and verdicts (handlers in court-handlers.ts).
  ...bind(courtHandlers, [
    'GET /api/codex/pledges',
    'POST /sovereign/pledge',
    'POST /pledge',
    'POST /sovereign/pledge/back',
    'POST /api/codex/pledges/review',
    'POST /sovereign/court-sign',
    'GET /api/court/precedent/{id}',
    'GET /api/verdicts',
    'GET /verdicts',
    'GET /api/dissent',
    'GET /dissent',
    'GET /verdicts.xml',
    'GET /reversals.xml',
  ]),
];
