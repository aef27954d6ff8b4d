/**
 * The organism, part 3a: mind (claims and stances, the Atom feed), persona (now, becoming, history,
 * narrative), soul, evolution and dispatch. Each GET is computed from stored rows on every request
 * (`no-store`). Pages (/mind, /mind/claim/{id}, /mind/claim/missing, /evolutions) are Astro pages
 * that fetch these projections.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute } from '../route.ts';
import { dispatchProjection } from './dispatch.ts';
import { evolutionProjection } from './evolution.ts';
import { mindFeed, mindProjection, takeStance } from './mind.ts';
import { becomingProjection, historyProjection, narrativeProjection, personaProjection } from './persona.ts';
import { soulProjection } from './soul.ts';

function live<T>(compute: (request: FastifyRequest) => Promise<T>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = await compute(request);
    reply.header('cache-control', 'no-store');
    return body;
  };
}

export const organismRoutes3a = [
  defineRoute('GET /api/mind', { handler: live((request) => mindProjection(request.server, request.query)) }),
  defineRoute('POST /api/mind/stance', { sameOrigin: 'form', handler: takeStance }),
  defineRoute('GET /mind/feed.xml', { handler: mindFeed }),
  defineRoute('GET /api/persona', { handler: live((request) => personaProjection(request.server)) }),
  defineRoute('GET /api/persona/becoming', { handler: live((request) => becomingProjection(request.server.civitas)) }),
  defineRoute('GET /api/persona/history', { handler: live((request) => historyProjection(request.server.civitas)) }),
  defineRoute('GET /api/persona/narrative', { handler: live((request) => narrativeProjection(request.server)) }),
  defineRoute('GET /api/soul', { handler: live((request) => soulProjection(request.server)) }),
  defineRoute('GET /api/evolution', { handler: live((request) => evolutionProjection(request.server.civitas)) }),
  defineRoute('GET /api/dispatch', { handler: live((request) => dispatchProjection(request.server.civitas)) }),
];
