/** Calibration's read projections: calibration scores, prophecies, the almanac, streaks, due items. */
import type { AppContext } from '../context.ts';
import type { SignedIn } from '../plugins/session.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import {
  CALIBRATION_SCOPE,
  COMPARATORS,
  leanedRight,
  METRIC_MEANING,
  METRICS,
  seasonOf,
  summarize,
  type Resolved,
} from '../../shared/calibration/scores.ts';
import { ISO, prophecyList, type Forecaster } from './prophecies.ts';
import { PACT_GRACE_DAYS, pactList } from './pacts.ts';
import { one } from '../db/rows.ts';

/** GET /api/calibration (and the MCP tool civitas_calibration): scores overall and by forecaster kind. */
export async function calibrationView(ctx: AppContext) {
  const rows = await ctx.db.query<{
    forecaster_kind: 'service' | 'sovereign';
    probability: number;
    outcome: boolean;
  }>('select forecaster_kind, probability, outcome from prophecies where resolved_at is not null');
  const open = one(
    await ctx.db.query<{ n: number }>('select count(*) as n from prophecies where resolved_at is null'),
  );
  const all: Resolved[] = rows.map((r) => ({
    probability: r.probability,
    outcome: r.outcome === true,
  }));
  const of = (kind: string) =>
    rows
      .filter((r) => r.forecaster_kind === kind)
      .map((r) => ({ probability: r.probability, outcome: r.outcome === true }));
  return {
    ok: true as const,
    schema: 'civitas.calibration.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    scope: CALIBRATION_SCOPE,
    method: {
      brier_score:
        'mean of (probability − outcome)², outcome 1 if the prophecy came true else 0; 0 is perfect, 0.25 is always saying 50%',
      log_score:
        'mean of ln(probability given to what happened); 0 is perfect, more negative is worse (ln 0.5 ≈ −0.693 for always 50%)',
      reliability:
        'ten bins of predicted probability; each bin shows how often its prophecies came true. Bins with fewer than 5 prophecies show the count as "fewer than 5" and no figures.',
      resolution: 'each prophecy is resolved automatically at its due time from the metric as it stood then',
    },
    metrics: METRICS.map((m) => ({ metric: m, meaning: METRIC_MEANING[m] })),
    comparators: COMPARATORS,
    open: open.n,
    overall: summarize(all),
    by_forecaster: { service: summarize(of('service')), sovereigns: summarize(of('sovereign')) },
  };
}

/** GET /prophecy (JSON): prophecies open (soonest due first) and resolved (newest first). */
export async function prophecyView(ctx: AppContext, limit = 100) {
  const [open, resolved] = await Promise.all([
    prophecyList(ctx.db, 'open', limit),
    prophecyList(ctx.db, 'resolved', limit),
  ]);
  return {
    ok: true as const,
    schema: 'civitas.prophecies.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    scope: CALIBRATION_SCOPE,
    metrics: METRICS.map((m) => ({ metric: m, meaning: METRIC_MEANING[m] })),
    comparators: COMPARATORS,
    open,
    resolved,
  };
}

/** GET /almanac (JSON): the season, what comes due (prophecies and pacts by due date), what was answered. */
export async function almanacView(ctx: AppContext, limit = 100) {
  const now = ctx.clock.now();
  const season = seasonOf(now);
  const [open, resolved, pacts, answeredPacts] = await Promise.all([
    prophecyList(ctx.db, 'open', limit),
    prophecyList(ctx.db, 'resolved', 50),
    pactList(ctx.db, 'open', limit, now),
    pactList(ctx.db, 'answered', 50, now),
  ]);
  const due = [
    ...open.map((p) => ({
      kind: 'prophecy' as const,
      id: p.id,
      title: p.statement,
      due_at: p.due_at,
      made_at: p.made_at,
      by: p.forecaster,
      href: p.links.card,
    })),
    ...pacts.map((p) => ({
      kind: 'pact' as const,
      id: p.id,
      title: p.title,
      due_at: p.due_at,
      made_at: p.made_at,
      by: p.author,
      href: p.links.card,
    })),
  ].sort((a, b) => a.due_at.localeCompare(b.due_at) || a.id.localeCompare(b.id));
  return {
    ok: true as const,
    schema: 'civitas.almanac.v1' as const,
    as_of: now.toISOString(),
    season: { name: season.season, starts: season.start.toISOString(), ends: season.end.toISOString() },
    scope: CALIBRATION_SCOPE,
    due,
    prophecies: { open, resolved },
    pacts: { open: pacts, answered: answeredPacts },
    feeds: { ics: '/almanac.ics', atom: '/almanac.xml', streaks: '/streaks.xml' },
    pact_resolution: `A due pact is answered (kept or broken) by its author, or by a steward on the author's behalf; until then it reads awaiting_author, and a pact still unanswered ${PACT_GRACE_DAYS} days after its due date lapses as broken.`,
  };
}

export const STREAK_MIN = 2;

export interface Streak {
  actor: Forecaster;
  kind: 'prophecies' | 'pacts';
  length: number;
  since: string;
  last_at: string;
  last_id: string;
}

/** Streaks: trailing runs (≥ 2) of prophecies that leaned the right way, and of kept pacts, per actor. */
export async function streaks(ctx: AppContext): Promise<Streak[]> {
  const rows = await ctx.db.query<{
    id: string;
    forecaster_kind: string;
    forecaster_id: string | null;
    tag: string | null;
    callsign: string | null;
    callsign_visible: boolean | null;
    erased: boolean | null;
    probability: number;
    outcome: boolean;
    at: string;
  }>(
    `select p.id, p.forecaster_kind, p.forecaster_id, s.tag, s.callsign, s.callsign_visible, s.erased_at is not null as erased, p.probability, p.outcome, ${ISO('p.resolved_at')} as at
       from prophecies p left join sovereigns s on s.id = p.forecaster_id
      where p.resolved_at is not null order by p.resolved_at, p.due_at, p.id`,
  );
  const pacts = await ctx.db.query<{
    id: string;
    author_id: string | null;
    tag: string | null;
    callsign: string | null;
    callsign_visible: boolean | null;
    erased: boolean | null;
    status: string;
    at: string;
  }>(
    `select p.id, p.author_id, s.tag, s.callsign, s.callsign_visible, s.erased_at is not null as erased, p.status, ${ISO('p.resolved_at')} as at
       from pacts p left join sovereigns s on s.id = p.author_id where p.status <> 'open' order by p.resolved_at, p.id`,
  );
  const runs = new Map<string, Streak>();
  for (const r of rows) {
    const actor =
      r.forecaster_kind === 'service'
        ? ({ kind: 'service', ref: 'service:civitas', display: 'civitas' } as const)
        : projectActorRef({
            actor_id: r.forecaster_id ?? '',
            kind: 'sovereign',
            tag: r.erased ? null : r.tag,
            callsign: r.erased ? null : r.callsign,
            callsign_visible: r.callsign_visible === true && !r.erased,
          });
    const key = `prophecies|${r.forecaster_kind}|${r.forecaster_id ?? ''}`;
    const right = leanedRight({ probability: r.probability, outcome: r.outcome === true });
    const run = runs.get(key);
    if (!right) runs.delete(key);
    else if (run) Object.assign(run, { length: run.length + 1, last_at: r.at, last_id: r.id });
    else runs.set(key, { actor, kind: 'prophecies', length: 1, since: r.at, last_at: r.at, last_id: r.id });
  }
  for (const p of pacts) {
    const key = `pacts|${p.author_id ?? ''}`;
    const run = runs.get(key);
    if (p.status !== 'kept') runs.delete(key);
    else if (run) Object.assign(run, { length: run.length + 1, last_at: p.at, last_id: p.id });
    else
      runs.set(key, {
        actor: projectActorRef({
          actor_id: p.author_id ?? '',
          kind: 'sovereign',
          tag: p.erased ? null : p.tag,
          callsign: p.erased ? null : p.callsign,
          callsign_visible: p.callsign_visible === true && !p.erased,
        }),
        kind: 'pacts',
        length: 1,
        since: p.at,
        last_at: p.at,
        last_id: p.id,
      });
  }
  return [...runs.values()]
    .filter((s) => s.length >= STREAK_MIN)
    .sort((a, b) => b.length - a.length || b.last_at.localeCompare(a.last_at));
}

/** What comes due for one sovereign (joined into /sovereign/due.ics and .xml by the identity family). */
export async function calibrationDueItems(ctx: AppContext, me: SignedIn) {
  const prophecies = await ctx.db.query<{
    id: string;
    metric: string;
    comparator: string;
    threshold: number;
    due_at: string;
  }>(
    `select id, metric, comparator, threshold, ${ISO('due_at')} as due_at from prophecies where forecaster_id = $1 and resolved_at is null order by due_at limit 100`,
    [me.sovereignId],
  );
  const pacts = await ctx.db.query<{ id: string; title: string; due_at: string; mine: boolean }>(
    `select p.id, p.title, ${ISO('p.due_at')} as due_at, p.author_id = $1 as mine from pacts p
      where p.status = 'open' and (p.author_id = $1 or exists (select 1 from pact_stakes k where k.pact_id = p.id and k.sovereign_id = $1))
      order by p.due_at limit 100`,
    [me.sovereignId],
  );
  return [
    ...prophecies.map((p) => ({
      id: p.id,
      title: `Your prophecy comes due: ${p.metric} ${p.comparator === 'gte' ? '≥' : '<'} ${p.threshold}`,
      due_at: p.due_at,
      href: '/prophecy',
      detail: 'It is resolved automatically at this time from the metric as it stands then.',
    })),
    ...pacts.map((p) => ({
      id: p.id,
      title: p.mine ? `Your pact comes due: ${p.title}` : `A pact you staked on comes due: ${p.title}`,
      due_at: p.due_at,
      href: '/almanac',
      detail: p.mine ? 'Answer it (kept or broken) once it is due.' : 'Its author answers it once it is due.',
    })),
  ];
}
