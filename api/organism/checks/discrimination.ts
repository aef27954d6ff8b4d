/**
 * GET /api/discrimination: outcome disparities between kinds and cohorts — the hold rate (the
 * spam gate) and the quarantine rate (unattested, kept from collective learning) of imprints, by
 * author kind and by the author's join-month cohort. k-anonymous: a group with fewer than 5
 * distinct authors publishes "fewer than 5" and no rates (anonymity_cardinality, cohort_projection:
 * a cohort is only its kind and join month, never a label or a member).
 *
 * Against differencing (each kind's total is published too): consecutive months are joined into
 * one cohort period until each kind in it has 0 or at least 5 authors (joinSmallMonths, the rule
 * of /api/cohorts), so no kind total minus published cohorts recovers a small group.
 *
 * The figures cover every stored imprint, so they are computed by the `organism.discrimination`
 * job (one process, under an advisory lock) and kept as one row; a request reads that row only
 * (no read in proportion to the history) and says when it was computed (`as_of`).
 */
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/database.ts';
import { constant, type Row } from '../../db/kysely.ts';
import type { Counts } from '../../db/rows.ts';
import { K_ANONYMITY_THRESHOLD, kAnonymousCount } from '../../../shared/boundaries/k-anonymity.ts';
import { joinSmallMonths } from '../../people/cohorts.ts';

export const DISCRIMINATION_LOCK = 7_212_030;
const rate = (part: number, whole: number) => Math.round((part / whole) * 10_000) / 10_000;

interface Tally {
  authors: number;
  imprints: number;
  held: number;
  quarantined: number;
}
type Kind = 'agent' | 'sovereign';
/** One author's figures: the month it first appeared (YYYY-MM, null if unknown) and its counts. */
type AuthorRow = Pick<Row<'imprints'>, 'author_kind' | 'author_ref'> &
  Counts<'imprints' | 'held' | 'quarantined'> & { month: string | null };

function publish(kind: Kind, tally: Tally, month?: string) {
  const base = { kind, ...(month !== undefined ? { joined_month: month } : {}) };
  if (tally.authors < K_ANONYMITY_THRESHOLD) {
    return {
      ...base,
      authors: kAnonymousCount(tally.authors),
      imprints: kAnonymousCount(0),
      published: false as const,
      hold_rate: null,
      quarantine_rate: null,
    };
  }
  return {
    ...base,
    authors: tally.authors,
    imprints: tally.imprints,
    published: true as const,
    held: tally.held,
    quarantined: tally.quarantined,
    hold_rate: rate(tally.held, tally.imprints),
    quarantine_rate: rate(tally.quarantined, tally.imprints),
  };
}
type Group = ReturnType<typeof publish>;

function spread(groups: Group[], key: 'hold_rate' | 'quarantine_rate') {
  const values = groups.filter((g) => g.published).map((g) => g[key] as number);
  if (values.length < 2) return null;
  const max = Math.max(...values);
  const min = Math.min(...values);
  return {
    max,
    min,
    difference: Math.round((max - min) * 10_000) / 10_000,
    ratio: min === 0 ? null : Math.round((max / min) * 100) / 100,
  };
}

const kindOf = (raw: string): Kind => (raw === 'agent' ? 'agent' : 'sovereign');

function sum(rows: AuthorRow[], kind: Kind): Tally {
  const mine = rows.filter((row) => kindOf(row.author_kind) === kind);
  return {
    authors: mine.length,
    imprints: mine.reduce((n, row) => n + row.imprints, 0),
    held: mine.reduce((n, row) => n + row.held, 0),
    quarantined: mine.reduce((n, row) => n + row.quarantined, 0),
  };
}

/** The groups from one row per author: kinds, and cohort periods joined so each kind is 0 or ≥ 5. */
function groupsOf(rows: AuthorRow[]) {
  const kinds = (['agent', 'sovereign'] as const)
    .map((kind) => ({ kind, tally: sum(rows, kind) }))
    .filter(({ tally }) => tally.authors > 0)
    .map(({ kind, tally }) => publish(kind, tally));
  const byMonth = new Map<string, AuthorRow[]>();
  for (const row of rows) {
    const month = row.month ?? 'unknown'; // sorted last: 'u' follows every digit
    byMonth.set(month, [...(byMonth.get(month) ?? []), row]);
  }
  const months = [...byMonth.keys()].sort().map((month) => ({
    month,
    members: byMonth
      .get(month)!
      .map((row) => ({ actor_id: `${row.author_kind}:${row.author_ref}`, kind: kindOf(row.author_kind) })),
  }));
  const byRef = new Map(rows.map((row) => [`${row.author_kind}:${row.author_ref}`, row]));
  const cohorts = joinSmallMonths(months).flatMap((period) => {
    const label = period.from === period.to ? period.from : `${period.from}/${period.to}`;
    const members = period.members.map((member) => byRef.get(member.actor_id)!);
    return (['agent', 'sovereign'] as const)
      .map((kind) => ({ kind, tally: sum(members, kind) }))
      .filter(({ tally }) => tally.authors > 0)
      .map(({ kind, tally }) => publish(kind, tally, label));
  });
  return { kinds, cohorts };
}

/** Computes the figures over every stored imprint: one row per author (the job's read, never a request's). */
export async function computeDiscrimination(sql: Sql, asOf: Date) {
  const rows = await sql.query<AuthorRow>(
    `select i.author_kind, i.author_ref,
            to_char(coalesce(a.first_seen_at, s.created_at) at time zone 'UTC', 'YYYY-MM') as month,
            count(*) as imprints, count(*) filter (where i.held) as held, count(*) filter (where i.unattested) as quarantined
       from imprints i
       left join agents a on i.author_kind = 'agent' and a.handle = i.author_ref
       left join sovereigns s on i.author_kind = 'sovereign' and s.id::text = i.author_ref
      group by 1, 2, 3`,
  );
  const { kinds, cohorts } = groupsOf(rows);
  return {
    as_of: asOf.toISOString(),
    by_kind: kinds,
    by_cohort: cohorts,
    disparities: {
      kinds: { hold_rate: spread(kinds, 'hold_rate'), quarantine_rate: spread(kinds, 'quarantine_rate') },
      cohorts: {
        hold_rate: spread(cohorts, 'hold_rate'),
        quarantine_rate: spread(cohorts, 'quarantine_rate'),
      },
    },
  };
}
type Figures = Awaited<ReturnType<typeof computeDiscrimination>>;

/** The `organism.discrimination` job: one process computes the figures and keeps them as one row. */
export async function discriminationJob(ctx: AppContext): Promise<{ ran: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const [lock] = await tx.kysely
      .selectNoFrom((eb) =>
        eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(DISCRIMINATION_LOCK)]).as('locked'),
      )
      .execute();
    if (!lock?.locked) return { ran: false };
    const now = ctx.clock.now();
    const figures = await computeDiscrimination(tx, now);
    await tx.query(
      `insert into discrimination_results (id, as_of, figures) values (1, $1, $2)
       on conflict (id) do update set as_of = excluded.as_of, figures = excluded.figures`,
      [now.toISOString(), JSON.stringify(figures)],
    );
    return { ran: true };
  });
}

const EMPTY: Omit<Figures, 'as_of'> = {
  by_kind: [],
  by_cohort: [],
  disparities: {
    kinds: { hold_rate: null, quarantine_rate: null },
    cohorts: { hold_rate: null, quarantine_rate: null },
  },
};

/** GET /api/discrimination: the kept figures (one row), `as_of` null until the job first ran. */
export async function discriminationView(ctx: AppContext) {
  const [row] = await ctx.db.kysely
    .selectFrom('discrimination_results')
    .select('figures')
    .where('id', '=', constant(1))
    .execute();
  const figures: Figures | null = row
    ? ((typeof row.figures === 'string' ? JSON.parse(row.figures) : row.figures) as Figures)
    : null;
  return {
    ok: true as const,
    schema: 'civitas.discrimination.v1' as const,
    as_of: figures?.as_of ?? null,
    k_anonymity: {
      threshold: K_ANONYMITY_THRESHOLD,
      rule: 'A group with fewer than 5 distinct authors shows "fewer than 5" and no counts or rates. Consecutive join months are joined into one cohort period until each kind in it has 0 or at least 5 authors, so no kind total minus the published cohorts recovers a small group.',
    },
    outcomes: {
      hold_rate: "Share of a group's imprints the spam gate held.",
      quarantine_rate:
        "Share of a group's imprints kept from collective learning because they were unattested. Structural for agents: an open handle is quarantined until attested.",
    },
    ...(figures ?? EMPTY),
    basis:
      'Every stored imprint (the lifetime Record: kinds and outcomes outlive the body window), computed by a periodic job every 10 minutes and kept: as_of says when (null: not computed yet). Cohort = the author\'s join month (agents: first seen; sovereigns: crossed), joined with the next months while a kind in it has 1–4 authors (YYYY-MM/YYYY-MM); authors not matched to a stored identity form the "unknown" month.',
  };
}
