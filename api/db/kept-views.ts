/**
 * Views kept by a job (migration 0065), below every family so any family's view can be kept: the
 * `organism.observatory` job, which one process takes
 * per run (it claims the view for the interval in one statement, so no transaction stays open while
 * it computes), computes each view and stores it with its `as_of` and what it covered; a request reads the stored row, one key lookup. A row older than STALE_MS means the
 * job is not running (a fresh database, a tool's app without timers): the request that finds it
 * computes the view itself, once per process however many wait (coalesced), and stores it.
 */
import type { AppContext } from '../context.ts';
import type { Sql } from './database.ts';
import { coalescer } from '../../shared/coalesce.ts';

export const KEPT_INTERVAL_MS = 60_000;
const STALE_MS = 3 * KEPT_INTERVAL_MS;

export interface KeptView<T extends { as_of: string }> {
  name: string;
  compute(ctx: AppContext): Promise<T>;
  /** What the computation read (a window, a count of rows), stored beside the answer. */
  coverage(value: T): Record<string, unknown>;
}

async function store<T extends { as_of: string }>(sql: Sql, view: KeptView<T>, value: T) {
  // An older computation finishing late never replaces a newer one.
  await sql.query(
    `insert into kept_views (name, as_of, coverage, body) values ($1, $2, $3, $4)
     on conflict (name) do update set as_of = excluded.as_of, coverage = excluded.coverage, body = excluded.body
      where kept_views.as_of <= excluded.as_of`,
    [view.name, value.as_of, JSON.stringify(view.coverage(value)), JSON.stringify(value)],
  );
}

const inline = coalescer<string, unknown>();

/** The kept answer of `view`, or (no fresh row) the answer computed now and kept. */
export async function readKept<T extends { as_of: string }>(ctx: AppContext, view: KeptView<T>): Promise<T> {
  const [row] = await ctx.db.kysely
    .selectFrom('kept_views')
    .select(['as_of', 'body'])
    .where('name', '=', view.name)
    .execute();
  const age = row ? ctx.clock.now().getTime() - new Date(row.as_of).getTime() : Infinity;
  // body is jsonb: the stored view, whose shape is the kept view's own (T), not the column's.
  if (row && age >= 0 && age <= STALE_MS)
    return typeof row.body === 'string' ? (JSON.parse(row.body) as T) : (row.body as T);
  return inline(view.name, async () => {
    const value = await view.compute(ctx);
    await store(ctx.db, view, value);
    return value;
  }) as Promise<T>;
}

/** `view` computed and kept now, whatever its row's age (a job run's step, without the claim). */
export async function computeKept<T extends { as_of: string }>(
  ctx: AppContext,
  view: KeptView<T>,
): Promise<T> {
  const value = await view.compute(ctx);
  await store(ctx.db, view, value);
  return value;
}

/** The job's run: each view this process claims for the interval is computed and stored. */
export async function refreshKept(
  ctx: AppContext,
  views: readonly KeptView<{ as_of: string }>[],
): Promise<{ computed: string[] }> {
  const computed: string[] = [];
  for (const view of views) {
    const now = ctx.clock.now();
    // One process wins the claim per interval: an update whose condition holds for one statement only.
    const claimed = await ctx.db.query(
      `insert into kept_view_claims (name, claimed_at) values ($1, $2)
       on conflict (name) do update set claimed_at = excluded.claimed_at
        where kept_view_claims.claimed_at <= $3 or kept_view_claims.claimed_at > $2
       returning name`,
      [view.name, now.toISOString(), new Date(now.getTime() - KEPT_INTERVAL_MS / 2).toISOString()],
    );
    if (claimed.length === 0) continue;
    await store(ctx.db, view, await view.compute(ctx));
    computed.push(view.name);
  }
  return { computed };
}
