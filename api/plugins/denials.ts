import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal, type ErrorReason } from '../../shared/errors.ts';
import type { Sql } from '../db/database.ts';
import { withoutQuery } from '../../shared/url-path.ts';

/** A refusal to trace: what was refused, why, who (stored privately), when. */
export interface TracedDenial {
  action: string;
  reason: string;
  actor: { kind: 'sovereign'; actor_id: string; tag: string } | null;
  at: Date;
}

export interface DenialsOptions {
  /** Writes the denial receipt inside `tx` (the ledger's recordDenial, wired by api/app.ts). */
  record: (tx: Sql, denial: TracedDenial) => Promise<{ id: string }>;
}

/**
 * Refusals that leave a trace: a denial receipt (step `denial.<reason>`) in the transparency log,
 * published without actor ids (denial_receipt boundary). Only a known actor's refusal is traced —
 * a signed-in sovereign lacking a scope — and it spends the caller's write budget first, so nobody
 * can grow the log faster than they could write to it. Anonymous refusals (401 without a session,
 * cross-site requests) are not traced, and neither is a failed continuity proof: the contract says
 * nothing at all is recorded then (the handle is only a name; the caller may not be its mind).
 */
const TRACED: ReadonlySet<ErrorReason> = new Set(['scope_required']);

function actorOf(request: FastifyRequest, refusal: Refusal): TracedDenial['actor'] {
  if (refusal.reason === 'scope_required' && request.sovereign) {
    return { kind: 'sovereign', actor_id: request.sovereign.sovereignId, tag: request.sovereign.tag };
  }
  return null;
}

async function denials(app: FastifyInstance, options: DenialsOptions) {
  app.addHook('onError', async (request, reply, error) => {
    if (!(error instanceof Refusal) || !TRACED.has(error.reason)) return;
    const actor = actorOf(request, error);
    if (!actor) return;
    try {
      await app.chargeWrite(request);
    } catch {
      return; // over budget: the refusal still answers, but leaves no receipt
    }
    const ctx = app.civitas;
    const action = `${request.method} ${request.routeOptions.url ?? withoutQuery(request.url)}`;
    const receipt = await ctx.db.transaction((tx) =>
      options.record(tx, { action, reason: error.reason, actor, at: ctx.clock.now() }),
    );
    reply.header('x-civitas-denial-receipt', receipt.id);
  });
}

export default fp(denials, { name: 'civitas-denials', dependencies: ['civitas-rate-limit'] });
