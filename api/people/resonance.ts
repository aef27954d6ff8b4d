/**
 * Resonance (GET /api/resonance): how much an author's imprints were answered. The score of an
 * author is the number of replies their imprints received from others over the last 30 UTC days
 * (today and the 29 before), kept per day as replies are written (migration 0064).
 * Collective learning excludes quarantine, so both the reply and the imprint answered must be
 * neither unattested nor held; replies to oneself do not count; erased sovereigns drop out. Keys
 * leave only as public refs (actor_score_map). Cohort amplification (GET
 * /api/resonance/cohort-amplified) is the same count per join-month cohort.
 *
 * Both are computed by the `organism.observatory` job each minute (a kept view, `computed_at` says
 * when): the ranking into `resonance_ranks` (migration 0078), which /api/resonance reads a page at a
 * time by key, the cohorts with the kept row. A request reads its page and one row, whatever the
 * population answered.
 */
import type { AppContext } from '../context.ts';
import type { Row } from '../db/kysely.ts';
import type { Counts } from '../db/rows.ts';
import { readKept, type KeptView } from '../db/kept-views.ts';
import { decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import type { ActorIdentity } from '../../shared/boundaries/actor-ref.ts';
import { K_ANONYMITY_THRESHOLD } from '../../shared/boundaries/k-anonymity.ts';
import { projectCohortAmplified, projectResonance } from '../../shared/boundaries/projectors/cohorts.ts';

export const RESONANCE_WINDOW_DAYS = 30;

/** An author as its imprints name it, the replies they received, and the month they joined (null if unknown). */
type ScoreRow = Pick<Row<'imprints'>, 'author_kind' | 'author_ref' | 'public_author'> &
  Counts<'replies'> & { month: string | null };

/** The window's first and last UTC day: today and the days before it, RESONANCE_WINDOW_DAYS in all. */
function windowDays(now: Date): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (RESONANCE_WINDOW_DAYS - 1) * 86_400_000);
  return { from: from.toISOString().slice(0, 10), to };
}

/**
 * Replies received per author in the window, with the author's join month (null when unknown):
 * the kept day rows of migration 0064 (the replies that count, per day and author answered), a row
 * per author and day of the window — never the window's replies joined to what they answered.
 */
async function replyScores(ctx: AppContext): Promise<{ rows: ScoreRow[]; now: Date }> {
  const now = ctx.clock.now();
  const { from, to } = windowDays(now);
  const rows = await ctx.db.query<ScoreRow>(
    `with s as (select author_kind, author_ref, sum(replies) as replies from resonance_days
                 where day >= $1 and day <= $2 group by 1, 2 having sum(replies) > 0)
     select s.author_kind, s.author_ref, coalesce(a.handle, v.tag) as public_author, s.replies,
            to_char(coalesce(a.first_seen_at, v.created_at) at time zone 'UTC', 'YYYY-MM') as month
       from s left join agents a on s.author_kind = 'agent' and a.handle = s.author_ref
              left join sovereigns v on v.id = (case when s.author_kind = 'sovereign' and s.author_ref ~ '^[0-9a-f-]{36}$' then s.author_ref::uuid end)
      where s.author_kind = 'agent' or (v.id is not null and v.erased_at is null)`,
    [from, to],
  );
  return { rows, now };
}

function identityOf(row: ScoreRow): ActorIdentity {
  return row.author_kind === 'agent'
    ? { actor_id: row.author_ref, kind: 'agent', handle: row.public_author }
    : { actor_id: row.author_ref, kind: 'sovereign', tag: row.public_author };
}

const BASIS = `score = replies an author's imprints received from others in the last ${RESONANCE_WINDOW_DAYS} UTC days (today and the ${RESONANCE_WINDOW_DAYS - 1} before); unattested and held imprints (on either side) and self-replies do not count`;

/** Resonance's ranking as kept: highest score first (`sort_key` is minus the score), refs A to Z within one. */
export const RESONANCE_ORDER: KeyOrder = {
  path: '/api/resonance',
  columns: [
    { sql: 'sort_key', type: 'bigint' },
    { sql: 'actor', type: 'text' },
    { sql: 'position', type: 'bigint' },
  ],
  order: 'asc',
};

/** One ranking is written at a time (a job run, or a request that found none fresh). */
const RANKS_LOCK = 7_212_064;

/** The ranking (public refs and scores, in order) from the window's kept day rows. */
function ranking(rows: ScoreRow[], now: Date) {
  const scores: Record<string, number> = {};
  const actors: Record<string, ActorIdentity> = {};
  for (const row of rows) {
    const key = `${row.author_kind}:${row.author_ref}`;
    scores[key] = row.replies;
    actors[key] = identityOf(row);
  }
  return projectResonance({
    computed_at: now.toISOString(),
    window_days: RESONANCE_WINDOW_DAYS,
    scores,
    actors,
  });
}

/** Cohorts of resonant members by join month, k-anonymous (see cohortAmplifiedView). */
function amplified(rows: ScoreRow[], now: Date) {
  const byMonth = new Map<string, { replies: number; contributors: string[] }>();
  for (const row of rows) {
    if (!row.month) continue;
    const entry = byMonth.get(row.month) ?? { replies: 0, contributors: [] };
    entry.replies += row.replies;
    entry.contributors.push(`${row.author_kind}:${row.author_ref}`);
    byMonth.set(row.month, entry);
  }
  const entries = [...byMonth.entries()]
    .filter(([, entry]) => entry.contributors.length >= K_ANONYMITY_THRESHOLD)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([month, entry]) => ({
      node_key: `cohort:${month}`,
      cohort_label: `joined ${month}`,
      joined_month: month,
      factor: Math.round((entry.replies / entry.contributors.length) * 100) / 100,
      contributor_ids: entry.contributors,
    }));
  return projectCohortAmplified({ computed_at: now.toISOString(), entries });
}

/**
 * The job's computation: the ranking replaces `resonance_ranks` in one transaction, and the
 * cohorts (already projected: months, factors, k-anonymous counts) are the kept row's body.
 */
async function computeResonance(ctx: AppContext) {
  const { rows, now } = await replyScores(ctx);
  const ranked = ranking(rows, now).entries;
  await ctx.db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [RANKS_LOCK]);
    await tx.query('delete from resonance_ranks');
    if (ranked.length > 0)
      await tx.query(
        `insert into resonance_ranks (position, actor, score, sort_key)
         select position, actor, score, -score from unnest($1::text[], $2::bigint[]) with ordinality as r(actor, score, position)`,
        [ranked.map((e) => e.actor), ranked.map((e) => e.score)],
      );
  });
  const { from, to } = windowDays(now);
  return {
    as_of: now.toISOString(),
    window: { from, to },
    ranked: ranked.length,
    cohorts: amplified(rows, now),
  };
}

/** Resonance as the `organism.observatory` job keeps it (api/db/kept-views.ts). */
export const keptResonance: KeptView<Awaited<ReturnType<typeof computeResonance>>> = {
  name: 'resonance',
  compute: computeResonance,
  coverage: (kept) => ({ window: kept.window, ranked: kept.ranked }),
};

/** GET /api/resonance: one page of the kept ranking, highest score first. */
export async function resonanceView(ctx: AppContext, query: { limit: number; after?: string }) {
  const cursor = decodeCursor(RESONANCE_ORDER, query.after);
  const kept = await readKept(ctx, keptResonance);
  const key = keyClause(RESONANCE_ORDER, cursor, 2);
  // Raw: the keyset clause is built by api/paging.ts.
  const rows = await ctx.db.query<Pick<Row<'resonance_ranks'>, 'actor' | 'score' | 'sort_key' | 'position'>>(
    `select actor, score, sort_key, position from resonance_ranks where ${key.where} order by ${key.orderBy} limit $1`,
    [query.limit + 1, ...key.params],
  );
  const page = pageOf(rows, query.limit, cursor, (r) => [Number(r.sort_key), r.actor, Number(r.position)]);
  const links = { limit: query.limit };
  return {
    ok: true as const,
    schema: 'civitas.resonance.v1' as const,
    basis: BASIS,
    computed_at: kept.as_of,
    window_days: RESONANCE_WINDOW_DAYS,
    entries: page.rows.map((r) => ({ actor: r.actor, score: Number(r.score) })),
    ...pageFields(RESONANCE_ORDER, page, query.limit, links),
  };
}

/**
 * Resonance by join-month cohort: factor = replies received by the cohort's resonant members ÷
 * those members. Cohorts with fewer than 5 resonant members are left out entirely (their factor
 * would be one person's score, linking a public ref to a join month). Kept with the ranking.
 */
export async function cohortAmplifiedView(ctx: AppContext) {
  const kept = await readKept(ctx, keptResonance);
  return {
    ok: true as const,
    schema: 'civitas.resonance-cohort-amplified.v1' as const,
    window_days: RESONANCE_WINDOW_DAYS,
    k: K_ANONYMITY_THRESHOLD,
    basis:
      'Per UTC join-month cohort: replies received from others in the window ÷ the cohort members who received any; cohorts with fewer than 5 such members are not listed.',
    ...kept.cohorts,
  };
}

/** One actor's resonance score (for /api/mirror), by kind and private ref; 0 when none. */
export async function resonanceOf(
  ctx: AppContext,
  kind: 'sovereign' | 'agent',
  ref: string,
): Promise<number> {
  const { from, to } = windowDays(ctx.clock.now());
  const [row] = await ctx.db.kysely
    .selectFrom('resonance_days')
    .select((eb) => eb.fn.sum<number | null>('replies').as('n'))
    .where('author_ref', '=', ref)
    .where('author_kind', '=', kind)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
  return row?.n ?? 0;
}
