/**
 * Themes of the Record: drift (week-over-week divergence of kinds and topics), dreaming (the daily
 * synthesis of themes) and the constellations of terms. Only words and counts leave, never a body.
 */
import type { FastifyRequest } from 'fastify';
import { defineRoute } from '../../route.ts';
import { constellationView, dreamConstellationView } from './constellation.ts';
import { dreamingCard, dreamingView } from './dreaming.ts';
import { driftView } from './drift.ts';

export const themesHandlers = [
  defineRoute('GET /api/drift', {
    handler: (request) => driftView(request.server.civitas),
  }),
  defineRoute('GET /api/dreaming', {
    handler: (request) => dreamingView(request.server.civitas),
  }),
  defineRoute('GET /dreaming/card.svg', {
    async handler(request, reply) {
      const svg = dreamingCard(await dreamingView(request.server.civitas));
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  }),
  defineRoute('GET /api/constellation', {
    handler: (request) => constellationView(request.server.civitas),
  }),
  defineRoute('GET /dream-constellation', {
    page: true,
    async handler(request: FastifyRequest) {
      const body = await dreamConstellationView(request.server.civitas);
      return body;
    },
  }),
];
