/**
 * The organism's checks on itself: self-trials, vigilance, linearizability, discrimination, why an
 * entity is in its state, and policy evaluation. Self-trials, vigilance and linearizability read what the
 * verification job kept (knowledge.ts); the others are computed from stored data on every request
 * (`no-store`); the discrimination page and figures are kept out of shared caches.
 */
import { censusHost } from '../../boundaries/live-probes.ts';
import { defineRoute } from '../../route.ts';
import { renderPage } from '../../pages.ts';
import { discriminationView } from './discrimination.ts';
import { linearizabilityView } from './linearizability.ts';
import { evaluatePolicy } from './policy.ts';
import { keptSelfTrials } from './knowledge.ts';
import { vigilanceView } from './vigilance.ts';
import { whyView } from './why.ts';

export const checksHandlers = [
  defineRoute('GET /api/self-trials', {
    handler: (request) => keptSelfTrials(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/vigilance', {
    handler: (request) => vigilanceView(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/linearizability', {
    handler: (request) => linearizabilityView(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/policy/evaluate', {
    handler: (request) => evaluatePolicy(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /api/why/{entity}', {
    handler: (request) => whyView(request.server.civitas, request.input.params.entity),
  }),
  defineRoute('GET /api/discrimination', {
    async handler(request) {
      const body = await discriminationView(request.server.civitas);
      return body;
    },
  }),
  defineRoute('GET /discrimination', { handler: renderPage }),
];
