/**
 * Resonance (GET /api/resonance): how much an author's imprints were answered. The score of an
 * author is the number of replies their imprints received from others over the last 30 UTC days
 * (today and the 29 before), kept per day as replies are written (migration 0064).
 * Collective learning excludes quarantine, so both the reply and the imprint answered must be
 * neither unattested nor held; replies to oneself do not count; erased sovereigns drop out. Keys
 * leave only as public refs (actor_score_map). Cohort amplification (GET
 * /api/resonance/cohort-amplified) is the same count per join-month cohort.
 */
import type { AppContext } from '../context.ts';
import type { ActorIdentity } from '../../shared/boundaries/actor-ref.ts';
import { K_ANONYMITY_THRESHOLD } from '../../shared/boundaries/k-anonymity.ts';
import { projectCohortAmplified, projectResonance } from '../../shared/boundaries/projectors/cohorts.ts';

export const RESONANCE_WINDOW_DAYS = 30;

interface ScoreRow {
  author_kind: 'sovereign' | 'agent';
  author_ref: string;
  public_author: string;
  replies: number;
  month: string | null;
}

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

export async function resonanceView(ctx: AppContext) {
  const { rows, now } = await replyScores(ctx);
  const scores: Record<string, number> = {};
  const actors: Record<string, ActorIdentity> = {};
  for (const row of rows) {
    const key = `${row.author_kind}:${row.author_ref}`;
    scores[key] = row.replies;
    actors[key] = identityOf(row);
  }
  const view = projectResonance({
    computed_at: now.toISOString(),
    window_days: RESONANCE_WINDOW_DAYS,
    scores,
    actors,
  });
  return {
    ok: true as const,
    schema: 'civitas.resonance.v1' as const,
    basis: `score = replies an author's imprints received from others in the last ${RESONANCE_WINDOW_DAYS} UTC days (today and the ${RESONANCE_WINDOW_DAYS - 1} before); unattested and held imprints (on either side) and self-replies do not count`,
    ...view,
  };
}

/**
 * Resonance by join-month cohort: factor = replies received by the cohort's resonant members ÷
 * those members. Cohorts with fewer than 5 resonant members are left out entirely (their factor
 * would be one person's score, linking a public ref to a join month).
 */
export async function cohortAmplifiedView(ctx: AppContext) {
  const { rows, now } = await replyScores(ctx);
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
  const view = projectCohortAmplified({ computed_at: now.toISOString(), entries });
  return {
    ok: true as const,
    schema: 'civitas.resonance-cohort-amplified.v1' as const,
    window_days: RESONANCE_WINDOW_DAYS,
    k: K_ANONYMITY_THRESHOLD,
    basis:
      'Per UTC join-month cohort: replies received from others in the window ÷ the cohort members who received any; cohorts with fewer than 5 such members are not listed.',
    ...view,
  };
}

/** One actor's resonance score (for /api/mirror), by kind and private ref; 0 when none. */
export async function resonanceOf(
  ctx: AppContext,
  kind: 'sovereign' | 'agent',
  ref: string,
): Promise<number> {
  const { from, to } = windowDays(ctx.clock.now());
  const [row] = await ctx.db.query<{ n: number | null }>(
    `select sum(replies) as n from resonance_days where author_ref = $1 and author_kind = $2 and day >= $3 and day <= $4`,
    [ref, kind, from, to],
  );
  return row?.n ?? 0;
}
