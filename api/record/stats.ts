import type { AppContext } from '../context.ts';
import { population } from '../people/presence.ts';
import { RECORD_WINDOW } from '../../shared/record/imprint.ts';
import { recordCounts } from './queries.ts';

/**
 * The headline counts, one projection for /api/stats, /stats.json, the /stats page and MCP
 * civitas_stats. Humans and agents are two kinds and are never summed.
 */
export async function statsProjection(ctx: AppContext) {
  const [people, record, receipts] = await Promise.all([
    population(ctx),
    recordCounts(ctx.db),
    ctx.db.query<{ n: string | number }>('select count(*) as n from receipts'),
  ]);
  return {
    ok: true as const,
    schema: 'civitas.stats.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    humans: people.humans,
    agents: people.agents,
    imprints_lifetime: record.lifetime,
    imprints_retained: Math.min(record.retained, RECORD_WINDOW),
    imprints_unattested: record.unattested,
    imprints_held: record.held,
    receipts: Number(receipts[0].n),
    window: RECORD_WINDOW,
  };
}
