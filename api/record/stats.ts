import type { AppContext } from '../context.ts';
import { RECORD_WINDOW } from '../../shared/record/imprint.ts';
import { coalescer } from '../../shared/coalesce.ts';
import { RECORD_COUNTS } from './queries.ts';
import { one, type Counts } from '../db/rows.ts';

type Headline = Counts<'humans' | 'agents' | 'lifetime' | 'retained' | 'unattested' | 'held' | 'receipts'>;

/**
 * Every headline count in one statement (one round trip, one prepared plan), none of them a scan
 * of a table: humans and agents are the database's tallies (migration 0022), the Record's counts
 * are RECORD_COUNTS (api/record/queries.ts). Receipts are the sum of `receipt_tallies` (a row per
 * step, kept by the trigger on every receipt's insert; none is ever deleted), which equals the sum
 * of the log days' sizes: the days' rows were read before, a row per day whose every receipt
 * rewrites it with the day's frontier, so their pages grew with the receipts written (141 pages
 * for 60 rows at 200,000 imprints, 832 at a million) where the tallies' stay a handful.
 */
const COUNTS = `select (select value from record_tallies where name = 'sovereigns') as humans,
       (select value from record_tallies where name = 'agents') as agents,
       ${RECORD_COUNTS},
       (select coalesce(sum(receipts), 0) from receipt_tallies) as receipts`;

const reads = coalescer<AppContext, ReturnType<typeof project>>();

/**
 * The headline counts, one projection for /api/stats, /stats.json, the /stats page and MCP
 * civitas_stats. Humans and agents are two kinds and are never summed. Requests that arrive
 * together share one read begun after they arrived (shared/coalesce.ts): each answer is as fresh
 * as its own read would have been, and nothing is kept once it is given.
 */
export function statsView(ctx: AppContext) {
  return reads(ctx, async () => project(ctx, one(await ctx.db.query<Headline>(COUNTS))), ctx.db.embedded);
}

function project(ctx: AppContext, counts: Headline) {
  return {
    ok: true as const,
    schema: 'civitas.stats.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    humans: counts.humans,
    agents: counts.agents,
    imprints_lifetime: counts.lifetime,
    imprints_retained: Math.min(counts.retained, RECORD_WINDOW),
    imprints_unattested: counts.unattested,
    imprints_held: counts.held,
    receipts: counts.receipts,
    window: RECORD_WINDOW,
  };
}
