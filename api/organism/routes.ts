import { cacheControlForPersonalized } from '../../shared/boundaries/headers/cache.ts';
import { renderPage } from '../pages.ts';
import { defineRoute } from '../route.ts';
import { failuresProjection } from './failures.ts';
import { metabolismCard, metabolismProjection } from './metabolism.ts';
import { promisesProjection } from './promises.ts';
import { organismProjection, stateProjection } from './state.ts';
import { runSelfTrials } from './trials.ts';
import { vitalsChanges, vitalsProjection } from './vitals.ts';
import { whyProjection } from './why.ts';
import { organismRoutes2 } from './routes2.ts';
import { branchworldRoutes } from './branchworld.ts';
import { constellationRoutes } from './constellation.ts';
import { crossRoutes } from './cross.ts';
import { experimentsRoutes } from './experiments.ts';
import { expeditionsRoutes } from './expeditions.ts';
import { observatoryRoutes } from './observatory.ts';
import { observatoryAssetRoutes } from './observatory-assets.ts';
import { spinesRoutes } from './spines.ts';
import { swarmRoutes } from './swarm.ts';
import { organismRoutes3a } from './mind-routes.ts';

/** Live figures (`cache: 'no-store'`): recomputed on every request, never replayed from a cache. */
export const organismRoutes = [
  ...organismRoutes2,
  ...organismRoutes3a,
  ...observatoryRoutes, ...observatoryAssetRoutes, ...swarmRoutes, ...spinesRoutes, ...constellationRoutes, ...crossRoutes, ...branchworldRoutes, ...experimentsRoutes, ...expeditionsRoutes,
  defineRoute('GET /api/self-trials', { cache: 'no-store', handler: (request) => runSelfTrials(request.server) }),
  defineRoute('GET /api/vitals', { cache: 'no-store', handler: (request) => vitalsProjection(request.server.civitas) }),
  defineRoute('GET /api/vitals/changes', { cache: 'no-store', handler: (request) => vitalsChanges(request.server.civitas) }),
  defineRoute('GET /api/metabolism', { cache: 'no-store', handler: (request) => metabolismProjection(request.server.civitas) }),
  defineRoute('GET /api/state', { cache: 'no-store', handler: (request) => stateProjection(request.server.civitas) }),
  defineRoute('GET /api/organism', { cache: 'no-store', handler: (request) => organismProjection(request.server) }),
  defineRoute('GET /api/failures', { cache: 'no-store', handler: (request) => failuresProjection(request.server.civitas) }),
  defineRoute('GET /api/promises', { cache: 'no-store', handler: (request) => promisesProjection(request.server) }),
  defineRoute('GET /api/why/{entity}', {
    cache: 'no-store', handler: (request) => whyProjection(request.server.civitas, (request.params as { entity?: string }).entity),
  }),
  // shared_cache_audience: /metabolism and its card are among the pages no shared cache may keep.
  defineRoute('GET /metabolism', {
    async handler(request, reply) {
      reply.header('cache-control', cacheControlForPersonalized()).header('vary', 'Cookie');
      return renderPage(request, reply);
    },
  }),
  defineRoute('GET /metabolism/card.svg', {
    async handler(request, reply) {
      const svg = metabolismCard(await metabolismProjection(request.server.civitas));
      return reply.header('cache-control', cacheControlForPersonalized()).type('image/svg+xml; charset=utf-8').send(svg);
    },
  }),
];
