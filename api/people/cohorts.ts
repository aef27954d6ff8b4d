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

/**
 * Federated cohorts: the remote authors whose feedback each configured peer relayed, grouped by
 * the UTC month of their first relay. The composite `origin:author` node key stays inside.
 */
export async function federatedCohortsView(ctx: AppContext) {
  const rows = await ctx.db.kysely
    .selectFrom('federation_relays')
    .select([
      'peer',
      'author',
      sql<string>`to_char(min(received_at) at time zone 'UTC', 'YYYY-MM')`.as('month'),
    ])
    .where('author', 'is not', null)
    .groupBy(['peer', 'author'])
    .orderBy('peer')
    .orderBy('month')
    .$narrowType<{ author: string }>()
    .execute();
  const origins = new Map(ctx.config.federationPeers.map((peer) => [peer.name, peer.origin]));
  const groups = new Map<
    string,
    FederatedCohortRecord & { members: FederatedCohortRecord['members'][number][] }
  >();
  for (const row of rows) {
    const key = `${row.peer} ${row.month}`;
    const group = groups.get(key) ?? {
      node_key: `${origins.get(row.peer) ?? row.peer}:${row.month}`,
      peer: row.peer,
      label: `relayed ${row.month}`,
      joined_month: row.month,
      members: [],
    };
    group.members.push({
      actor_id: `${origins.get(row.peer) ?? row.peer}:${row.author}`,
      kind: row.author.startsWith('agent:') ? 'agent' : 'sovereign',
    });
    groups.set(key, group);
  }
  return {
    ok: true as const,
    schema: 'civitas.cohorts-federated.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    k: K_ANONYMITY_THRESHOLD,
    peers: ctx.config.federationPeers.length,
    basis:
      'Per configured federation peer: the distinct remote authors whose feedback that peer relayed, by the UTC month of their first relay, humans and agents as separate counts (a count under 5 reads "fewer than 5"). Empty until a peer is configured and relays.',
    cohorts: projectFederatedCohorts([...groups.values()]),
  };
}
