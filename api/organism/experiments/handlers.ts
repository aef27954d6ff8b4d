/**
 * Experiments the service runs on itself: the prevention experiment (/experiments), the
 * recovery-paradox expedition (/expeditions/recovery-paradox) and branchworlds (what-if projections
 * from a prophecy or a proposal). A signed-in sovereign records a run; the expedition's figures are
 * kept out of shared caches.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { preventionRunBody } from '../../../shared/organism/contract/experiments.ts';
import { Refusal } from '../../../shared/errors.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../../http.ts';
import { defineRoute } from '../../route.ts';
import { renderPage } from '../../pages.ts';
import { branchworldView } from './branchworld.ts';
import { keptParadox, paradoxView } from './expeditions.ts';
import { keptPrevention, preventionView, recordRun } from './prevention.ts';
import { computeKept } from '../../db/kept-views.ts';

/** Who may run it is answered (401) before what was sent (400): a preHandler runs before the contract. */
function requireRunner(request: FastifyRequest) {
  if (!request.sovereign)
    throw new Refusal(
      'identity_required',
      {},
      'Sign in to record a run of the experiment (cross at /initiate or return at /return).',
    );
}

function requireExpeditioner(request: FastifyRequest) {
  if (!request.sovereign)
    throw new Refusal(
      'identity_required',
      {},
      'Sign in to record a run of the expedition (cross at /initiate or return at /return).',
    );
}

/**
 * Records a run of the prevention experiment for a signed-in sovereign. Both doors (the JSON one and
 * the /experiments form) take the same body, parsed by the router with their contracts.
 */
async function postRun(
  request: FastifyRequest,
  reply: FastifyReply,
  fallback: string,
  input: z.output<typeof preventionRunBody>,
) {
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, fallback) : null;
  const ctx = request.server.civitas;
  const run = await recordRun(
    ctx,
    'experiment:prevention',
    input.variation ? input.variation : null,
    // The figures of the run's moment, computed afresh and kept for the view's readers.
    (await computeKept(ctx, keptPrevention)).findings,
  );
  if (target) return seeOther(reply, withQuery(target, { run: run.id }));
  return { ok: true as const, run };
}

export const experimentsHandlers = [
  defineRoute('GET /api/experiments/prevention', {
    handler: (request) => preventionView(request.server.civitas),
  }),
  defineRoute('POST /api/experiments/prevention', {
    // Who may run it is answered (401) before what was sent (400).
    preHandler: requireRunner,
    handler: (request, reply) => postRun(request, reply, '/experiments', request.input.body),
  }),
  defineRoute('GET /experiments', {
    page: true,
    async handler(request: FastifyRequest) {
      return preventionView(request.server.civitas);
    },
  }),
  defineRoute('POST /experiments', {
    preHandler: requireRunner,
    handler: (request, reply) => postRun(request, reply, '/experiments', request.input.body),
  }),
  defineRoute('GET /api/expeditions/recovery-paradox', {
    async handler(request: FastifyRequest) {
      const body = await paradoxView(request.server.civitas);
      return body;
    },
  }),
  defineRoute('GET /expeditions/recovery-paradox', {
    handler: (request) => paradoxView(request.server.civitas),
    page: true,
  }),
  defineRoute('GET /expeditions', { handler: renderPage }),
  defineRoute('POST /expeditions/recovery-paradox', {
    preHandler: requireExpeditioner,
    async handler(request, reply) {
      const input = request.input.body;
      const target = isFormPost(request)
        ? returnTarget(input.return_to, '/expeditions/recovery-paradox')
        : null;
      const ctx = request.server.civitas;
      // The figures of the run's moment, computed afresh and kept for the view's readers.
      const findings = (await computeKept(ctx, keptParadox)).findings;
      const run = await recordRun(ctx, 'expedition:recovery-paradox', null, findings);
      if (target) return seeOther(reply, withQuery(target, { run: run.id }));
      return { ok: true as const, run };
    },
  }),
  defineRoute('GET /branchworld/{id}', {
    page: true,
    async handler(request: FastifyRequest) {
      const body = await branchworldView(request.server.civitas, (request.params as { id?: string }).id);
      return body;
    },
  }),
];
