/**
 * Cohorts by join month (GET /api/cohorts) and federated cohorts (GET /api/cohorts/federated),
 * each through its boundary projector: humans and agents are separate k-anonymous counts, the
 * internal label and member ids never leave.
 *
 * Against differencing (the totals are public on /api/stats): consecutive months are joined into
 * one period until, in that period, each kind counts either 0 or at least 5. A hidden count is
 * then a true zero, except when the whole population of a kind is smaller than 5 (whose exact
 * size /api/stats already shows). A joined period is labelled `YYYY-MM/YYYY-MM`.
 */
import type { AppContext } from '../context.ts';
import { sql } from 'kysely';
import type { RowOf } from '../db/rows.ts';
import type { FederatedCohortCount } from './entities.ts';
import { decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import { K_ANONYMITY_THRESHOLD } from '../../shared/boundaries/k-anonymity.ts';
import {
  projectCohorts,
  projectFederatedCohorts,
  type CohortRecord,
  type FederatedCohortRecord,
} from '../../shared/boundaries/projectors/cohorts.ts';

type Member = { actor_id: string; kind: 'sovereign' | 'agent' };

const settled = (n: number) => n === 0 || n >= K_ANONYMITY_THRESHOLD;
type Counts = { humans: number; agents: number };

/**
 * Joins consecutive months into periods in which every kind is 0 or ≥ 5 (see the module note),
 * over any month value that can be counted by kind and merged.
 */
export function joinSmallPeriods<T>(
  months: readonly { month: string; value: T }[],
  counts: (value: T) => Counts,
  merge: (a: T, b: T) => T,
): { from: string; to: string; value: T }[] {
  const periods: { from: string; to: string; value: T }[] = [];
  let open: { from: string; to: string; value: T } | null = null;
  const isSettled = (value: T) => {
    const c = counts(value);
    return settled(c.humans) && settled(c.agents);
  };
  for (const month of months) {
    open = open
      ? { from: open.from, to: month.month, value: merge(open.value, month.value) }
      : { from: month.month, to: month.month, value: month.value };
    if (isSettled(open.value)) {
      periods.push(open);
      open = null;
    }
  }
  // The unsettled rest joins the periods before it until the join is settled (or is everything):
  // joining it to one settled period alone could leave a kind at 1–4 there, recoverable as the
  // kind's total minus the other periods.
  while (open) {
    const last = periods.pop();
    if (!last) {
      periods.push(open);
      break;
    }
    const joined = { from: last.from, to: open.to, value: merge(last.value, open.value) };
    if (isSettled(joined.value) || periods.length === 0) {
      periods.push(joined);
      open = null;
    } else open = joined;
  }
  return periods;
}

/** Joins consecutive months of members into periods in which every kind is 0 or ≥ 5. */
export function joinSmallMonths(
  months: readonly { month: string; members: Member[] }[],
): { from: string; to: string; members: Member[] }[] {
  const humansOf = (members: Member[]) => members.filter((m) => m.kind === 'sovereign').length;
  return joinSmallPeriods(
    months.map((m) => ({ month: m.month, value: [...m.members] })),
    (members) => ({ humans: humansOf(members), agents: members.length - humansOf(members) }),
    (a, b) => [...a, ...b],
  ).map((p) => ({ from: p.from, to: p.to, members: p.value }));
}

/**
 * The cohort records of the live population, by the UTC month each member joined: the kept
 * arrival tallies (migration 0062: sovereigns by crossing day, agents by first-seen day), summed by
 * month — a row per day, never a row per member.
 */
export async function cohortRecords(ctx: AppContext): Promise<CohortRecord[]> {
  const rows = await ctx.db.kysely
    .selectFrom('arrival_days')
    .select([
      sql<string>`to_char(day, 'YYYY-MM')`.as('month'),
      sql<number | null>`sum(members) filter (where kind = 'sovereign')`.as('humans'),
      sql<number | null>`sum(members) filter (where kind = 'agent')`.as('agents'),
    ])
    .groupBy(sql`1`)
    .having(sql`sum(members)`, '>', 0)
    .orderBy(sql`1`)
    .execute();
  const months = rows.map((row) => ({
    month: row.month,
    value: { humans: row.humans ?? 0, agents: row.agents ?? 0 },
  }));
  return joinSmallPeriods(
    months,
    (c) => c,
    (a, b) => ({ humans: a.humans + b.humans, agents: a.agents + b.agents }),
  ).map((period) => {
    const label = period.from === period.to ? period.from : `${period.from}/${period.to}`;
    return {
      cohort_id: `cohort:${label}`,
      label: `joined ${label}`,
      joined_month: label,
      members: [],
      counts: period.value,
    };
  });
}

export async function cohortsView(ctx: AppContext) {
  const cohorts = projectCohorts(await cohortRecords(ctx));
  return {
    ok: true as const,
    schema: 'civitas.cohorts.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    k: K_ANONYMITY_THRESHOLD,
    basis:
      'Cohorts by UTC join month (sovereigns: crossing; agents: first imprint). Humans and agents are separate counts; a count under 5 reads "fewer than 5". Consecutive months are joined (YYYY-MM/YYYY-MM) until each kind in the period is 0 or at least 5, so no small group can be recovered by subtraction from the totals.',
    cohorts,
  };
}

/** Federated cohorts page by key: peer, then month (the first day of the UTC month), A to Z, oldest first. */
export const FEDERATED_COHORT_ORDER: KeyOrder = {
  path: '/api/cohorts/federated',
  columns: [
    { sql: 'peer', type: 'text' },
    { sql: 'month', type: 'date' },
  ],
  order: 'asc',
};

type FederatedCount = RowOf<typeof FederatedCohortCount>;
type FederatedMonth = Pick<FederatedCount, 'peer'> & { first_day: string; humans: number; agents: number };

/**
 * Federated cohorts, a page at a time: the remote authors whose feedback each configured peer
 * relayed, grouped by the UTC month of their first relay, read from the counts the database keeps
 * as relays are written (`federated_cohort_counts`, migration 0085): at most two rows per cohort,
 * never a row per author or relay. The `origin:author` node key and the authors stay inside.
 */
export async function federatedCohortsView(ctx: AppContext, query: { limit: number; after?: string }) {
  const cursor = decodeCursor(FEDERATED_COHORT_ORDER, query.after);
  const key = keyClause(FEDERATED_COHORT_ORDER, cursor, 2);
  const rows = await ctx.db.query<FederatedMonth>(
    `select peer, to_char(month, 'YYYY-MM-DD') as first_day,
            coalesce(sum(members) filter (where kind = 'sovereign'), 0)::int8 as humans,
            coalesce(sum(members) filter (where kind = 'agent'), 0)::int8 as agents
       from federated_cohort_counts where ${key.where}
      group by peer, month order by ${key.orderBy} limit $1`,
    [query.limit + 1, ...key.params],
  );
  const page = pageOf(rows, query.limit, cursor, (row) => [row.peer, row.first_day]);
  const origins = new Map(ctx.config.federationPeers.map((peer) => [peer.name, peer.origin]));
  const records: FederatedCohortRecord[] = page.rows.map((row) => {
    const month = row.first_day.slice(0, 7);
    return {
      node_key: `${origins.get(row.peer) ?? row.peer}:${month}`,
      peer: row.peer,
      label: `relayed ${month}`,
      joined_month: month,
      members: [],
      counts: { humans: row.humans, agents: row.agents },
    };
  });
  const links = { limit: query.limit };
  return {
    ok: true as const,
    schema: 'civitas.cohorts-federated.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    k: K_ANONYMITY_THRESHOLD,
    peers: ctx.config.federationPeers.length,
    basis:
      'Per configured federation peer: the distinct remote authors whose feedback that peer relayed, by the UTC month of their first relay, humans and agents as separate counts (a count under 5 reads "fewer than 5"). Ordered by peer, then month, oldest first, a page at a time (follow next). Empty until a peer is configured and relays.',
    cohorts: projectFederatedCohorts(records),
    ...pageFields(FEDERATED_COHORT_ORDER, page, query.limit, links),
  };
}
