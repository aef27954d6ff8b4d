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

function live<T>(compute: (request: FastifyRequest) => Promise<T>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = await compute(request);
    reply.header('cache-control', 'no-store');
    return body;
  };
}

/** shared_cache_audience: /recovery and /discrimination (and their cards) are kept out of shared caches. */
function personalPage() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', cacheControlForPersonalized()).header('vary', 'Cookie');
    return renderPage(request, reply);
  };
}

export const organismRoutes2 = [
  defineRoute('GET /api/drift', { handler: live((request) => driftProjection(request.server.civitas)) }),
  defineRoute('GET /api/season', { handler: live((request) => seasonProjection(request.server.civitas)) }),
  defineRoute('GET /api/journal', { handler: live((request) => journalProjection(request.server.civitas, request.query)) }),
  defineRoute('GET /api/truth', { handler: live((request) => truthProjection(request.server)) }),
  defineRoute('GET /api/trust', { handler: live((request) => trustProjection(request.server.civitas)) }),
  defineRoute('GET /api/vigilance', { handler: live((request) => vigilanceProjection(request.server)) }),
  defineRoute('GET /api/linearizability', { handler: live((request) => linearizabilityProjection(request.server.civitas)) }),
  defineRoute('GET /api/dreaming', { handler: live((request) => dreamingProjection(request.server.civitas)) }),
  defineRoute('GET /api/policy/evaluate', { handler: live((request) => evaluatePolicy(request.server.civitas, request.query)) }),
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
