import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { defineRoute, parseInput } from '../route.ts';
import { blank } from '../../shared/record/imprint.ts';
import { censusList } from './census.ts';
import { cohortsView, federatedCohortsView } from './cohorts.ts';
import { commonsView } from './commons.ts';
import { confluenceCardSvg } from './confluence-card.ts';
import { federationView, relayBody, relayFeedback } from './federation.ts';
import { mirrorQuery, mirrorView } from './mirror.ts';
import { presenceView } from './presence.ts';
import { citizens } from './roster.ts';
import { cohortAmplifiedView, resonanceView } from './resonance.ts';

const citizensQuery = z.object({
  kind: z.preprocess(blank, z.enum(['sovereign', 'agent']).optional()),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

const censusQuery = z.object({
  limit: z.coerce.number().int().min(1).max(366).default(30),
  before: z.preprocess(blank, z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'before is a date, YYYY-MM-DD').optional()),
});

const noQuery = z.object({}).loose();

/** The commons is a page; asked for JSON (as the page itself asks) it answers its projection. */
async function commonsJson(request: FastifyRequest) {
  return commonsView(request.server.civitas);
}

export const peopleRoutes = [
  defineRoute('GET /api/citizens', {
    handler: (request) => citizens(request.server.civitas, parseInput(citizensQuery, request.query)),
  }),
  defineRoute('GET /api/censuses', {
    handler: (request) => censusList(request.server.civitas, parseInput(censusQuery, request.query)),
  }),
  defineRoute('GET /api/cohorts', { handler: (request) => cohortsView(request.server.civitas) }),
  defineRoute('GET /api/cohorts/federated', { handler: (request) => federatedCohortsView(request.server.civitas) }),
  defineRoute('GET /api/resonance', { handler: (request) => resonanceView(request.server.civitas) }),
  defineRoute('GET /api/resonance/cohort-amplified', { handler: (request) => cohortAmplifiedView(request.server.civitas) }),
  defineRoute('GET /api/presence', {
    cache: 'public',
    async handler(request) {
      parseInput(noQuery, request.query);
      return presenceView(request.server.civitas);
    },
  }),
  defineRoute('GET /commons', { handler: commonsJson, page: true }),
  defineRoute('GET /confluence/card.svg', { handler: confluenceCardSvg }),
  defineRoute('GET /api/federation', { handler: (request) => federationView(request.server.civitas) }),
  defineRoute('POST /api/federation/feedback-relay', {
    handler: (request) => relayFeedback(request.server.civitas, parseInput(relayBody, request.body)),
  }),
  defineRoute('GET /api/mirror', {
    async handler(request) {
      const { actor } = parseInput(mirrorQuery, request.query);
      return mirrorView(request.server.civitas, actor);
    },
  }),
];
