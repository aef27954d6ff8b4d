import type { FastifyReply, FastifyRequest } from 'fastify';
import { bind, defineRoute, type RouteRequest } from '../route.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import type { SignedIn } from '../plugins/session.ts';
import { Refusal } from '../../shared/errors.ts';
import { axiomsView } from '../../shared/governance/axioms.ts';
import { constitutionView, viewerOf } from './service.ts';
import { cosign, propose, ratify, requireRatifier } from './amendments.ts';
import { abstentionsView } from './abstentions.ts';
import { ceremonyView, lineageView, provenanceIndex, provenanceOf } from './views.ts';
import { courtHandlers } from './court-handlers.ts';
import { ratifierOnly } from './guards.ts';
import { sovereignRefusal } from '../../shared/policy.ts';

/** The router enforced governance:write from the registry; the shared policy repeats it where the handler acts. */
function governor(request: FastifyRequest, action: 'propose' | 'cosign'): SignedIn {
  const refusal = sovereignRefusal(action, request.sovereign ?? null);
  if (refusal || !request.sovereign)
    throw refusal ?? new Refusal('identity_required', { scope: 'governance:write' });
  return request.sovereign;
}

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
  const who = governor(request, 'propose');
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
  const who = governor(request, 'cosign');
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
    cache: 'public-5m',
    handler() {
      return axiomsView();
    },
  }),
  defineRoute('GET /api/constitution', {
    cache: 'private', // shared_cache_audience: the projection says what this viewer may do.
    async handler(request) {
      return constitutionForViewer(request);
    },
  }),
  defineRoute('GET /constitution', { cache: 'private', ...pageWithJson(constitutionForViewer) }),
  defineRoute('POST /api/constitution/propose', {
    sameOrigin: 'form',
    cache: 'private',
    handler: proposeHandler,
  }),
  defineRoute('POST /api/constitution/cosign', {
    sameOrigin: 'form',
    cache: 'private',
    handler: cosignHandler,
  }),
  defineRoute('POST /api/constitution/ratify', {
    sameOrigin: 'form',
    cache: 'private',
    preHandler: ratifierOnly,
    handler: ratifyHandler,
  }),
  defineRoute('GET /lineage', {
    cache: 'public-1m',
    ...pageWithJson((request) => lineageView(request.server.civitas)),
  }),
  defineRoute('GET /provenance', {
    cache: 'public-1m',
    ...pageWithJson((request) => provenanceIndex(request.server.civitas)),
  }),
  defineRoute('GET /provenance/{claim}', {
    cache: 'public-1m',
    ...pageWithJson((request) =>
      provenanceOf(
        request.server.civitas,
        (request as RouteRequest<'GET /provenance/{claim}'>).input.params.claim,
      ),
    ),
  }),
  defineRoute('GET /api/abstentions', {
    cache: 'private', // shared_cache_audience lists /abstentions
    async handler(request) {
      return abstentionsView(request.server.civitas);
    },
  }),
  defineRoute('GET /abstentions', {
    cache: 'private',
    ...pageWithJson((request) => abstentionsView(request.server.civitas)),
  }),
  defineRoute('GET /ceremony', {
    cache: 'private',
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
