import type { FastifyRequest } from 'fastify';
import { requireRatifier } from './amendments.ts';
import { viewerOf } from './service.ts';

/**
 * Route prelude (`preHandler`) of the ratifier's doors: who may act is answered (401 without a
 * session, 403 without the standing) before what was sent (the router's 400). The handler checks
 * again where it acts, with the viewer it needs.
 */
export async function ratifierOnly(request: FastifyRequest): Promise<void> {
  requireRatifier(request.sovereign, await viewerOf(request.server.civitas, request.sovereign));
}
