/**
 * The organism, part 3a: mind (claims and stances, the Atom feed), persona (now, becoming, history,
 * narrative), soul, evolution and dispatch. Each GET is computed from stored rows on every request
 * (`no-store`). Pages (/mind, /mind/claim/{id}, /mind/claim/missing, /evolutions) are Astro pages
 * that fetch these projections.
 */
import { defineRoute } from '../route.ts';
import { dispatchProjection } from './dispatch.ts';
import { evolutionProjection } from './evolution.ts';
import { mindFeed, mindProjection, takeStance } from './mind.ts';
import { becomingProjection, historyProjection, narrativeProjection, personaProjection } from './persona.ts';
import { soulProjection } from './soul.ts';

export const organismRoutes3a = [
  defineRoute('GET /api/mind', { cache: 'no-store', handler: (request) => mindProjection(request.server, request.query) }),
  defineRoute('POST /api/mind/stance', { sameOrigin: 'form', handler: takeStance }),
  defineRoute('GET /mind/feed.xml', { handler: mindFeed }),
  defineRoute('GET /api/persona', { cache: 'no-store', handler: (request) => personaProjection(request.server) }),
  defineRoute('GET /api/persona/becoming', { cache: 'no-store', handler: (request) => becomingProjection(request.server.civitas) }),
  defineRoute('GET /api/persona/history', { cache: 'no-store', handler: (request) => historyProjection(request.server.civitas) }),
  defineRoute('GET /api/persona/narrative', { cache: 'no-store', handler: (request) => narrativeProjection(request.server) }),
  defineRoute('GET /api/soul', { cache: 'no-store', handler: (request) => soulProjection(request.server) }),
  defineRoute('GET /api/evolution', { cache: 'no-store', handler: (request) => evolutionProjection(request.server.civitas) }),
  defineRoute('GET /api/dispatch', { cache: 'no-store', handler: (request) => dispatchProjection(request.server.civitas) }),
];
