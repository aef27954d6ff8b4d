/**
 * The observatory: one dashboard of the measurements the service takes of itself, and the
 * instruments it reads — swarm, spines, cross — plus the stylesheet that renders the Atom feeds
 * in a browser. Each figure is computed from stored data: the swarm and the dashboard by the
 * `organism.observatory` job every minute (kept.ts), the rest on each request from kept tallies
 * and threads (`no-store`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute } from '../../route.ts';
import { crossView } from './cross.ts';
import { feedXsl } from './feed-stylesheet.ts';
import { keptObservatory } from './observatory.ts';
import { readKept } from '../../db/kept-views.ts';
import { spinesView } from './spines.ts';
import { keptSwarm } from './swarm.ts';

export const observatoryHandlers = [
  defineRoute('GET /api/observatory', {
    handler: (request) => readKept(request.server.civitas, keptObservatory),
  }),
  defineRoute('GET /api/swarm', {
    handler: (request) => readKept(request.server.civitas, keptSwarm),
  }),
  defineRoute('GET /api/spines', {
    handler: (request) => spinesView(request.server.civitas),
  }),
  defineRoute('GET /api/cross', {
    handler: (request) => crossView(request.server.civitas),
  }),
  defineRoute('GET /feed.xsl', {
    async handler(_request: FastifyRequest, reply: FastifyReply) {
      const xsl = await feedXsl();
      return reply.type('text/xsl; charset=utf-8').send(xsl);
    },
  }),
];
