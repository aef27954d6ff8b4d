/**
 * The organism, second part: drift, season, journal, truth and trust, vigilance,
 * linearizability, recovery, discrimination, dreaming and policy evaluation. Each is computed
 * from stored data on every request (`no-store`); pages render the same projections.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderPage } from '../pages.ts';
import { defineRoute, wantsJson } from '../route.ts';
import { driftProjection } from './drift.ts';
import { journalProjection } from './journal.ts';
import { seasonProjection } from './season.ts';

function live<T>(compute: (request: FastifyRequest) => Promise<T>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = await compute(request);
    reply.header('cache-control', 'no-store');
    return body;
  };
}

export const organismRoutes2 = [
  defineRoute('GET /api/drift', { handler: live((request) => driftProjection(request.server.civitas)) }),
  defineRoute('GET /api/season', { handler: live((request) => seasonProjection(request.server.civitas)) }),
  defineRoute('GET /api/journal', { handler: live((request) => journalProjection(request.server.civitas, request.query)) }),
];

export { renderPage, wantsJson };
