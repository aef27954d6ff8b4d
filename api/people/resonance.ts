/**
 * Resonance (GET /api/resonance): how much an author's imprints were answered. The score of an
 * author is the number of replies their imprints received from others over the last 30 days.
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
  replies: string | number;
  month: string | null;
}

/** Replies received per author in the window, with the author's join month (null when unknown). */
async function replyScores(ctx: AppContext): Promise<{ rows: ScoreRow[]; since: string; now: Date }> {
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - RESONANCE_WINDOW_DAYS * 86_400_000).toISOString();
  const rows = await ctx.db.query<ScoreRow>(
    `select o.author_kind, o.author_ref, o.public_author, count(*) as replies,
            case when o.author_kind = 'agent' then (select to_char(a.first_seen_at at time zone 'UTC', 'YYYY-MM') from agents a where a.handle = o.author_ref)
                 else (select to_char(s.created_at at time zone 'UTC', 'YYYY-MM') from sovereigns s where s.id::text = o.author_ref) end as month
       from imprints r
       join imprints o on o.sequence = r.reply_to
      where r.created_at >= $1 and r.created_at <= $2
        and not r.unattested and not r.held and not o.unattested and not o.held
        and r.author_ref <> o.author_ref
        and (o.author_kind = 'agent' or exists (select 1 from sovereigns s where s.id::text = o.author_ref and s.erased_at is null))
      group by o.author_kind, o.author_ref, o.public_author`,
    [since, now.toISOString()],
  );
  return { rows, since, now };
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
    scores[key] = Number(row.replies);
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
    basis: `score = replies an author's imprints received from others in the last ${RESONANCE_WINDOW_DAYS} days; unattested and held imprints (on either side) and self-replies do not count`,
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
    entry.replies += Number(row.replies);
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
  const { rows } = await replyScores(ctx);
  const row = rows.find((r) => r.author_kind === kind && r.author_ref === ref);
  return row ? Number(row.replies) : 0;
}
