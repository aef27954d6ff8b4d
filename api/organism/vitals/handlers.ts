/**
 * The organism's vitals: request and error rates, metabolism, failures and recovery, promises and
 * dispatch. Each GET is computed from stored measurements on every request (`no-store`); the
 * metabolism and recovery pages and cards are kept out of shared caches.
 */
import { censusHost } from '../../boundaries/live-probes.ts';
import { defineRoute } from '../../route.ts';
import { renderPage } from '../../pages.ts';
import { dispatchView } from './dispatch.ts';
import { failuresView } from './failures.ts';
import { metabolismCard, metabolismView } from './metabolism.ts';
import { promisesView } from './promises.ts';
import { recoveryCard, recoveryView } from './recovery.ts';
import { vitalsChanges, vitalsView } from './vitals.ts';

export const vitalsHandlers = [
  defineRoute('GET /api/vitals', {
    handler: (request) => vitalsView(request.server.civitas),
  }),
  defineRoute('GET /api/vitals/changes', {
    handler: (request) => vitalsChanges(request.server.civitas),
  }),
  defineRoute('GET /api/metabolism', {
    handler: (request) => metabolismView(request.server.civitas),
  }),
  defineRoute('GET /api/failures', {
    handler: (request) => failuresView(request.server.civitas),
  }),
  defineRoute('GET /api/promises', {
    handler: (request) => promisesView(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/dispatch', {
    handler: (request) => dispatchView(request.server.civitas),
  }),
  defineRoute('GET /api/recovery', {
    async handler(request) {
      const body = await recoveryView(request.server.civitas);
      return body;
    },
  }),
  defineRoute('GET /metabolism', { handler: renderPage }),
  defineRoute('GET /recovery', { handler: renderPage }),
  defineRoute('GET /metabolism/card.svg', {
    async handler(request, reply) {
      const svg = metabolismCard(await metabolismView(request.server.civitas));
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  }),
  defineRoute('GET /recovery/card.svg', {
    async handler(request, reply) {
      const svg = recoveryCard(await recoveryView(request.server.civitas));
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  }),
];
