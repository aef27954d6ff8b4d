/**
 * The organism, second part: drift, season, journal, truth and trust, vigilance,
 * linearizability, recovery, discrimination, dreaming and policy evaluation. Each is computed
 * from stored data on every request (`no-store`); pages render the same projections.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cacheControlForPersonalized } from '../../shared/boundaries/headers/cache.ts';
import { renderPage } from '../pages.ts';
import { defineRoute } from '../route.ts';
import { discriminationProjection } from './discrimination.ts';
import { driftProjection } from './drift.ts';
import { dreamingCard, dreamingProjection } from './dreaming.ts';
import { journalProjection } from './journal.ts';
import { linearizabilityProjection } from './linearizability.ts';
import { evaluatePolicy } from './policy.ts';
import { recoveryCard, recoveryProjection } from './recovery.ts';
import { seasonProjection } from './season.ts';
import { trustProjection, truthProjection } from './truth.ts';
import { vigilanceProjection } from './vigilance.ts';

/** shared_cache_audience: /recovery and /discrimination (and their cards) are kept out of shared caches. */
function personalPage() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', cacheControlForPersonalized()).header('vary', 'Cookie');
    return renderPage(request, reply);
  };
}

export const organismRoutes2 = [
  defineRoute('GET /api/drift', { cache: 'no-store', handler: (request) => driftProjection(request.server.civitas) }),
  defineRoute('GET /api/season', { cache: 'no-store', handler: (request) => seasonProjection(request.server.civitas) }),
  defineRoute('GET /api/journal', { cache: 'no-store', handler: (request) => journalProjection(request.server.civitas, request.query) }),
  defineRoute('GET /api/truth', { cache: 'no-store', handler: (request) => truthProjection(request.server) }),
  defineRoute('GET /api/trust', { cache: 'no-store', handler: (request) => trustProjection(request.server.civitas) }),
  defineRoute('GET /api/vigilance', { cache: 'no-store', handler: (request) => vigilanceProjection(request.server) }),
  defineRoute('GET /api/linearizability', { cache: 'no-store', handler: (request) => linearizabilityProjection(request.server.civitas) }),
  defineRoute('GET /api/dreaming', { cache: 'no-store', handler: (request) => dreamingProjection(request.server.civitas) }),
  defineRoute('GET /api/policy/evaluate', { cache: 'no-store', handler: (request) => evaluatePolicy(request.server.civitas, request.query) }),
  defineRoute('GET /api/recovery', {
    async handler(request, reply) {
      const body = await recoveryProjection(request.server.civitas);
      reply.header('cache-control', cacheControlForPersonalized());
      return body;
    },
  }),
  defineRoute('GET /api/discrimination', {
    async handler(request, reply) {
      const body = await discriminationProjection(request.server.civitas);
      reply.header('cache-control', cacheControlForPersonalized());
      return body;
    },
  }),
  defineRoute('GET /recovery', { handler: personalPage() }),
  defineRoute('GET /discrimination', { handler: personalPage() }),
  defineRoute('GET /recovery/card.svg', {
    async handler(request, reply) {
      const svg = recoveryCard(await recoveryProjection(request.server.civitas));
      return reply.header('cache-control', cacheControlForPersonalized()).type('image/svg+xml; charset=utf-8').send(svg);
    },
  }),
  defineRoute('GET /dreaming/card.svg', {
    async handler(request, reply) {
      const svg = dreamingCard(await dreamingProjection(request.server.civitas));
      return reply.header('cache-control', 'no-store').type('image/svg+xml; charset=utf-8').send(svg);
    },
  }),
];
