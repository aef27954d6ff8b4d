/**
 * The observatory: one dashboard of the measurements the service takes of itself, and the
 * instruments it reads — swarm, spines, cross — plus the stylesheet that renders the Atom feeds
 * in a browser. Each figure is computed from stored data on every request (`no-store`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute } from '../../route.ts';
import { crossProjection } from './cross.ts';
import { feedXsl } from './feed-stylesheet.ts';
import { observatoryProjection } from './observatory.ts';
import { spinesProjection } from './spines.ts';
import { swarmProjection } from './swarm.ts';

export const observatoryRoutes = [
  defineRoute('GET /api/observatory', {
    async handler(request: FastifyRequest, reply: FastifyReply) {
      const body = await observatoryProjection(request.server.civitas);
      reply.header('cache-control', 'no-store');
      return body;
    },
  }),
  defineRoute('GET /api/swarm', {
    async handler(request: FastifyRequest, reply: FastifyReply) {
      const body = await swarmProjection(request.server.civitas);
      reply.header('cache-control', 'no-store');
      return body;
    },
  }),
  defineRoute('GET /api/spines', {
    async handler(request: FastifyRequest, reply: FastifyReply) {
      const body = await spinesProjection(request.server.civitas);
      reply.header('cache-control', 'no-store');
      return body;
    },
  }),
  defineRoute('GET /api/cross', {
    async handler(request: FastifyRequest, reply: FastifyReply) {
      const body = await crossProjection(request.server.civitas);
      reply.header('cache-control', 'no-store');
      return body;
    },
  }),
  defineRoute('GET /feed.xsl', {
    async handler(_request: FastifyRequest, reply: FastifyReply) {
      const xsl = await feedXsl();
      return reply.header('cache-control', 'public, max-age=3600').type('text/xsl; charset=utf-8').send(xsl);
    },
  }),
];
