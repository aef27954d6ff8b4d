import type { AppContext } from '../context.ts';
import type { SignedIn } from '../plugins/session.ts';
import { transparencyReport } from '../ledger/transparency.ts';
import { liveCensus, type CensusHost } from '../boundaries/census.ts';
import { queueSizes } from '../steward/queue.ts';
import { one } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';
import { talliesUnder, keptValue } from '../db/tallies.ts';

/**
 * /operator (and /dashboard): a steward's overview. Queue sizes are raw counts (steward-only
 * surface); denials and receipts come from the transparency report, the census from the same live
 * run /api/boundaries answers (`host`: the running app's probe and registrations, built by
 * censusHost in api/boundaries/live-probes.ts). Nothing here names an actor.
 */
export async function operatorConsole(ctx: AppContext, host: CensusHost, steward: SignedIn) {
  const [queues, requests, lessons, transparency, census] = await Promise.all([
    queueSizes(ctx.db),
    // `data_requests:<kind>:<status>`, kept by triggers (migration 0086): no scan of every request.
    talliesUnder(ctx.db, 'data_requests:'),
    ctx.db.kysely
      .selectFrom('lessons')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', constant('active'))
      .execute(),
    transparencyReport(ctx),
    liveCensus(ctx, host),
  ]);
  const pending = (kind: string) => keptValue(requests, `${kind}:pending`);
  return {
    ok: true as const,
    schema: 'civitas.operator.v1' as const,
    generated_at: ctx.clock.now().toISOString(),
    steward: { tag: steward.tag },
    queues: {
      held_untriaged: queues.held_untriaged,
      kept_held: queues.kept_held,
      open_reports: queues.open_reports,
      data_requests_pending: {
        export: pending('export'),
        erasure: pending('erasure'),
        total: pending('export') + pending('erasure'),
      },
    },
    denials: { total: transparency.denials.total, by_reason: transparency.denials.by_reason },
    receipts: { total: transparency.receipts.total },
    lessons: { active: one(lessons).n },
    census: {
      all_bound: census.all_bound,
      fully_accounted: census.fully_accounted,
      total_boundaries: census.total_boundaries,
      active: census.active,
      unbound_count: census.unbound_count,
      unbound: census.boundaries.filter((row) => row.status !== 'active').map((row) => row.key),
    },
    links: [
      { rel: 'inbox', href: '/steward', label: 'Steward inbox: everything that waits for a decision' },
      { rel: 'held', href: '/steward/held', label: 'Held imprints and open reports' },
      { rel: 'data-requests', href: '/steward/data-requests', label: 'Data export and erasure requests' },
      { rel: 'whispers', href: '/steward/whispers', label: 'Steward notes (whisper archive)' },
      { rel: 'transparency', href: '/api/transparency', label: 'Transparency report' },
      { rel: 'boundaries', href: '/boundaries', label: 'Boundary census' },
      { rel: 'lessons', href: '/api/hive/lessons', label: 'Lessons' },
    ],
  };
}
