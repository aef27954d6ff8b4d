import type { FastifyRequest } from 'fastify';
import { defineRoute } from '../route.ts';
import { censusList } from './census.ts';
import { federatedCohortsView } from './cohorts.ts';
import { cohortsPage } from './cohort-pages.ts';
import { commonsView } from './commons.ts';
import { confluenceCardSvg } from './confluence-card.ts';
import { federationView, relayFeedback } from './federation.ts';
import { mirrorView } from './mirror.ts';
import { presenceView } from './presence.ts';
import { citizens } from './roster.ts';
import { cohortAmplifiedView, resonanceView } from './resonance.ts';

/** The commons is a page; asked for JSON (as the page itself asks) it answers its projection. */
async function commonsJson(request: FastifyRequest) {
  return commonsView(request.server.civitas);
}

export const peopleRoutes = [
  defineRoute('GET /api/citizens', {
    handler: (request) => citizens(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /api/censuses', {
    handler: (request) => censusList(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /api/cohorts', {
    handler: (request) => cohortsPage(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /api/cohorts/federated', {
    handler: (request) => federatedCohortsView(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /api/resonance', {
    handler: (request) => resonanceView(request.server.civitas, request.input.query),
  }),
  defineRoute('GET /api/resonance/cohort-amplified', {
    handler: (request) => cohortAmplifiedView(request.server.civitas),
  }),
  defineRoute('GET /api/presence', {
    handler: (request) => presenceView(request.server.civitas),
  }),
  defineRoute('GET /commons', { handler: commonsJson, page: true }),
  defineRoute('GET /confluence/card.svg', { handler: confluenceCardSvg }),
  defineRoute('GET /api/federation', { handler: (request) => federationView(request.server.civitas) }),
  defineRoute('POST /api/federation/feedback-relay', {
    handler: (request) => relayFeedback(request.server.civitas, request.input.body),
  }),
  defineRoute('GET /api/mirror', {
    handler: (request) => mirrorView(request.server.civitas, request.input.query.actor),
  }),
];
