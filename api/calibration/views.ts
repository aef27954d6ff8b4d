/** Calibration's read projections: calibration scores, prophecies, the almanac, streaks, due items. */
import type { AppContext } from '../context.ts';
import type { SignedIn } from '../plugins/session.ts';
import {
  CALIBRATION_SCOPE,
  COMPARATORS,
  METRIC_MEANING,
  METRICS,
  seasonOf,
  summarizeTallies,
} from '../../shared/calibration/scores.ts';
import { forecasterOf, ISO, isoOf, type Face, type Forecaster } from './columns.ts';
import { prophecyList } from './prophecies.ts';
import { PACT_GRACE_DAYS, pactList } from './pacts.ts';
import { one, type RowOf } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';
import type { CalibrationStreak, CalibrationTally, Pact } from './entities.ts';

/**
 * GET /api/calibration (and the MCP tool civitas_calibration): scores overall and by forecaster
 * kind, from the reliability bins' sums kept as prophecies resolve (migration 0079): 20 rows
 * however many prophecies were resolved. Open prophecies are counted through their partial index.
 */
export async function calibrationView(ctx: AppContext) {
  const rows = await ctx.db.query<RowOf<typeof CalibrationTally>>(
    'select forecaster_kind, bin, n, n_true, sum_probability, sum_brier, sum_log from calibration_tallies',
  );
  const open = one(
    await ctx.db.kysely
      .selectFrom('prophecies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('resolved_at', 'is', null)
      .execute(),
  );
  const of = (kind: string) => rows.filter((r) => r.forecaster_kind === kind);
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
    overall: summarizeTallies(rows),
    by_forecaster: {
      service: summarizeTallies(of('service')),
      sovereigns: summarizeTallies(of('sovereign')),
    },
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

/** The most streaks a feed or card lists (the longest, then the newest); `streakCount` counts them all. */
export const STREAKS_SHOWN = 100;

/**
 * Streaks: trailing runs (≥ 2) of prophecies that leaned the right way, and of kept pacts, per
 * actor, longest first. Each actor's run is kept as its prophecies and pacts resolve (migration
 * 0079, `calibration_streaks`), so this reads at most `limit` kept runs through their index.
 */
export async function streaks(ctx: AppContext, limit = STREAKS_SHOWN): Promise<Streak[]> {
  // Raw: the kept runs' top `limit` first, then each run's actor by key (a lateral join).
  const rows = await ctx.db.query<
    Pick<
      RowOf<typeof CalibrationStreak>,
      'kind' | 'forecaster_kind' | 'actor_id' | 'length' | 'since' | 'last_at' | 'last_id'
    > &
      Face
  >(
    `select c.kind, c.forecaster_kind, c.actor_id, s.tag, s.callsign, s.callsign_visible, s.erased_at is not null as erased,
            c.length, ${ISO('c.since')} as since, ${ISO('c.last_at')} as last_at, c.last_id
       from (select * from calibration_streaks where length >= ${STREAK_MIN}
              order by length desc, last_at desc, kind desc, since, actor limit $1) c
       -- Each run's actor by key (a join could read every sovereign for a short list).
       left join lateral (select tag, callsign, callsign_visible, erased_at from sovereigns where id = c.actor_id limit 1) s on true
      order by c.length desc, c.last_at desc, c.kind desc, c.since, c.actor`,
    [limit],
  );
  return rows.map((r) => ({
    actor: forecasterOf({ ...r, forecaster_id: r.actor_id }),
    kind: r.kind,
    length: Number(r.length),
    since: r.since,
    last_at: r.last_at,
    last_id: r.last_id,
  }));
}

/** How many actors hold a streak (a tally moved as runs cross two, migration 0079). */
export async function streakCount(ctx: AppContext): Promise<number> {
  const [row] = await ctx.db.kysely
    .selectFrom('record_tallies')
    .select('value')
    .where('name', '=', constant('calibration_streaks'))
    .execute();
  return Number(row?.value ?? 0);
}

/** What comes due for one sovereign (joined into /sovereign/due.ics and .xml by the identity family). */
export async function calibrationDueItems(ctx: AppContext, me: SignedIn) {
  const prophecies = await ctx.db.kysely
    .selectFrom('prophecies')
    .select(['id', 'metric', 'comparator', 'threshold', isoOf('due_at').as('due_at')])
    // The kind too: prophecies_actor_resolved leads with it (migration 0094's note).
    .where('forecaster_kind', '=', constant('sovereign'))
    .where('forecaster_id', '=', me.sovereignId)
    .where('resolved_at', 'is', null)
    .orderBy('due_at')
    .limit(constant(100))
    .execute();
  // Raw: the sovereign's own open pacts (pacts_author_open) and those they staked on (through their
  // own stakes, pact_stakes_sovereign), never every open pact (migration 0094).
  const pacts = await ctx.db.query<
    Pick<RowOf<typeof Pact>, 'id' | 'title' | 'due_at'> & { mine: boolean | null }
  >(
    `select p.id, p.title, ${ISO('p.due_at')} as due_at, p.author_id = $1 as mine
       from (select id from pacts where author_id = $1 and status = 'open'
             union select pact_id from pact_stakes where sovereign_id = $1) own
       join pacts p on p.id = own.id
      where p.status = 'open'
      order by p.due_at, p.id limit 100`,
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
