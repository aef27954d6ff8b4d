/**
 * The organism's vitals: request and error rates, metabolism, failures and recovery, promises and
 * dispatch. Each GET is computed from stored measurements on every request (`no-store`); the
 * metabolism and recovery pages and cards are kept out of shared caches.
 */
import { censusHost } from '../../boundaries/live-probes.ts';
import { defineRoute } from '../../route.ts';
import { personalPage } from '../personal-page.ts';
import { dispatchProjection } from './dispatch.ts';
import { failuresProjection } from './failures.ts';
import { metabolismCard, metabolismProjection } from './metabolism.ts';
import { promisesProjection } from './promises.ts';
import { recoveryCard, recoveryProjection } from './recovery.ts';
import { vitalsChanges, vitalsProjection } from './vitals.ts';

export const vitalsRoutes = [
  defineRoute('GET /api/vitals', {
    cache: 'no-store',
    handler: (request) => vitalsProjection(request.server.civitas),
  }),
  defineRoute('GET /api/vitals/changes', {
    cache: 'no-store',
    handler: (request) => vitalsChanges(request.server.civitas),
  }),
  defineRoute('GET /api/metabolism', {
    cache: 'no-store',
    handler: (request) => metabolismProjection(request.server.civitas),
  }),
  defineRoute('GET /api/failures', {
    cache: 'no-store',
    handler: (request) => failuresProjection(request.server.civitas),
  }),
  defineRoute('GET /api/promises', {
    cache: 'no-store',
    handler: (request) => promisesProjection(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/dispatch', {
    cache: 'no-store',
    handler: (request) => dispatchProjection(request.server.civitas),
  }),
  defineRoute('GET /api/recovery', {
    cache: 'private',
    async handler(request) {
      const body = await recoveryProjection(request.server.civitas);
      return body;
    },
  }),
  defineRoute('GET /metabolism', { cache: 'private', handler: personalPage() }),
  defineRoute('GET /recovery', { cache: 'private', handler: personalPage() }),
  defineRoute('GET /metabolism/card.svg', {
    cache: 'private',
    async handler(request, reply) {
      const svg = metabolismCard(await metabolismProjection(request.server.civitas));
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  }),
  defineRoute('GET /recovery/card.svg', {
    cache: 'private',
    async handler(request, reply) {
      const svg = recoveryCard(await recoveryProjection(request.server.civitas));
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  }),
];
