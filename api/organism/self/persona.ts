/**
 * The persona: the service's self-description, derived from stored rows on each
 * request — its age, its population by kind (never summed), its Record, its busiest imprint kinds
 * of the last 30 days, the lessons stewards recorded, and how many of its mind claims hold.
 * Every figure can be computed "as of" a past instant from creation times, so becoming (vs 30 days
 * ago) and history (month ends) come from the same rows. The narrative is templated sentences over
 * those figures (no model).
 */
import { levelSchema } from '../../../shared/agents/contract.ts';
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import { DAY } from '../vitals/vitals.ts';
import { IMPRINT_KINDS } from '../../../shared/record/imprint.ts';
import { ALL_IMPRINTS, countBetween, shownKind, total } from './tallies.ts';
import { figuresAtMonthEnds, type Totals } from './month-ends.ts';
import { latestChecks } from '../mind/mind.ts';
import { TRUTH_CLAIMS } from '../mind/truth.ts';
import { count, noun } from '../../../shared/plural.ts';
import { one, type Counts } from '../../db/rows.ts';
import type { PersonaFigures, Voice } from '../../../shared/organism/contract/persona.ts';
import { constant } from '../../db/kysely.ts';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
export const BECOMING_DAYS = 30;
export const HISTORY_MONTHS = 24;

/** Birth: the first sovereign, agent or imprint (each the first row of an index; imprints by sequence, in time order). */
const BORN_AT = `to_char(least((select min(created_at) from sovereigns),
  (select min(first_seen_at) from agents), (select created_at from imprints order by sequence limit 1))
  at time zone 'UTC', ${ISO})`;

/** Every sovereign, agent and imprint stored now: tallies the writers keep, three rows ($1: the level tallies' names). */
const TOTALS = `coalesce((select value from record_tallies where name = 'sovereigns'), 0) as humans,
  -- every agent row, by level (migration 0045), read by key; the 'agents' tally counts public ones only
  coalesce((select sum(value) from record_tallies where name = any($1::text[])), 0) as agents,
  coalesce((select value from record_counter where id = 1), 0) as imprints`;
const LEVEL_TALLIES = levelSchema.options.map((level) => `agents_level:${level}`);

const KIND_NAMES = IMPRINT_KINDS.map(shownKind);

async function totalsNow(ctx: AppContext): Promise<Totals> {
  const row = one(
    await ctx.db.query<Counts<'humans' | 'agents' | 'imprints'>>(`select ${TOTALS}`, [LEVEL_TALLIES]),
  );
  return { humans: row.humans, agents: row.agents, imprints: row.imprints };
}

/** Today's totals, the lessons stored by `at` and the birth, in one statement. */
async function standing(ctx: AppContext, at: string) {
  return one(
    await ctx.db.query<Counts<'humans' | 'agents' | 'imprints' | 'lessons'> & { born_at: string | null }>(
      `select ${TOTALS}, (select count(*) from lessons where created_at <= $2) as lessons, ${BORN_AT} as born_at`,
      [LEVEL_TALLIES, at],
    ),
  );
}

/**
 * The figures as they stood at `at`, from creation times (rows created later are not counted):
 * today's totals less what the tallies count after `at`, and the kinds of the 30 days before it
 * (tallies.ts) — a bounded number of tally rows however long the service has lived, for any `at`
 * within the history the views ask about (30 days, 24 month ends).
 */
export async function figuresAt(ctx: AppContext, at: Date): Promise<PersonaFigures> {
  const iso = at.toISOString();
  const after = new Date(at.getTime() + 1);
  const [now, later, recent] = await Promise.all([
    standing(ctx, iso),
    countBetween(ctx.db, [...ALL_IMPRINTS, 'agents', 'sovereigns'], after, null),
    countBetween(ctx.db, KIND_NAMES, new Date(after.getTime() - BECOMING_DAYS * DAY), after),
  ]);
  const birth = now.born_at;
  const kinds = IMPRINT_KINDS.map((kind) => ({ kind, n: recent.get(shownKind(kind)) ?? 0 }))
    .filter((k) => k.n > 0)
    .sort((x, y) => y.n - x.n || x.kind.localeCompare(y.kind))
    .slice(0, 3);
  const born = birth !== null && Date.parse(birth) <= at.getTime() ? birth : null;
  return {
    as_of: iso,
    age_days: born === null ? null : Math.floor((at.getTime() - Date.parse(born)) / DAY),
    born_at: born,
    population: {
      humans: now.humans - (later.get('sovereigns') ?? 0),
      agents: now.agents - (later.get('agents') ?? 0),
    },
    imprints_lifetime: now.imprints - total(later, ALL_IMPRINTS),
    busiest_kinds: kinds.map((k) => ({ kind: k.kind, imprints: k.n })),
    lessons: now.lessons,
  };
}

/** Voice and stance: fixed rules over the figures (documented in docs/organism.md). */
function voiceOf(f: PersonaFigures): Voice {
  if (f.age_days === null) return 'unborn';
  if (f.age_days < 30) return 'new';
  if (f.age_days < 365) return 'growing';
  return 'established';
}

/** How many mind claims hold now; the host is for a first verification run (latestChecks). */
async function claimsHeld(ctx: AppContext, host: CensusHost): Promise<number> {
  const checks = await latestChecks(ctx, host);
  return TRUTH_CLAIMS.filter((c) => checks.get(c.claim)?.held === true).length;
}

/** The persona at `now` from its figures and the claims held: "confident" when every claim holds, else "watchful". */
function personaAt(now: Date, figures: PersonaFigures, held: number) {
  return {
    as_of: now.toISOString(),
    voice: voiceOf(figures),
    stance: held === TRUTH_CLAIMS.length ? ('confident' as const) : ('watchful' as const),
    figures: { ...figures, claims_held: held, claims: TRUTH_CLAIMS.length },
  };
}

export async function personaView(ctx: AppContext, host: CensusHost) {
  const now = ctx.clock.now();
  const [figures, held] = await Promise.all([figuresAt(ctx, now), claimsHeld(ctx, host)]);
  const lessons = await ctx.db.kysely
    .selectFrom('lessons')
    .select('title')
    .where('status', '=', constant('active'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(constant(3))
    .execute();
  return {
    ok: true as const,
    schema: 'civitas.persona.v1' as const,
    ...personaAt(now, figures, held),
    latest_lessons: lessons.map((l) => l.title),
    links: {
      becoming: '/api/persona/becoming',
      history: '/api/persona/history',
      narrative: '/api/persona/narrative',
      mind: '/api/mind',
    },
    rule: 'Voice by age (new under 30 days, growing under a year, then established); stance "confident" when every mind claim holds, else "watchful". Humans and agents are two kinds, never added together.',
  };
}

function change(before: number, after: number) {
  return {
    before,
    after,
    change: after - before,
    ratio: before === 0 ? null : Math.round((after / before) * 1000) / 1000,
  };
}

export async function becomingView(ctx: AppContext) {
  const now = ctx.clock.now();
  const then = new Date(now.getTime() - BECOMING_DAYS * DAY);
  const [was, is] = await Promise.all([figuresAt(ctx, then), figuresAt(ctx, now)]);
  return becoming(now, then, was, is);
}

/** The becoming view from the figures 30 days ago (`was`, at `then`) and now (`is`). */
function becoming(now: Date, then: Date, was: PersonaFigures, is: PersonaFigures) {
  const changes = {
    humans: change(was.population.humans, is.population.humans),
    agents: change(was.population.agents, is.population.agents),
    imprints_lifetime: change(was.imprints_lifetime, is.imprints_lifetime),
    lessons: change(was.lessons, is.lessons),
  };
  const why: string[] = [];
  const say = (n: number, one: string, many: string) => {
    if (n > 0) why.push(`${count(n, one, many)} arrived in the last ${BECOMING_DAYS} days.`);
  };
  say(changes.humans.change, 'human', 'humans');
  say(changes.agents.change, 'agent', 'agents');
  say(changes.imprints_lifetime.change, 'imprint', 'imprints');
  say(changes.lessons.change, 'lesson', 'lessons');
  const wasTop = was.busiest_kinds[0]?.kind ?? null;
  const isTop = is.busiest_kinds[0]?.kind ?? null;
  if (wasTop !== isTop)
    why.push(
      isTop === null
        ? 'No imprints arrived in the last 30 days.'
        : `The busiest kind is now ${isTop}${wasTop ? ` (it was ${wasTop})` : ''}.`,
    );
  if (voiceOf(was) !== voiceOf(is))
    why.push(`The voice changed from ${voiceOf(was)} to ${voiceOf(is)} with age.`);
  if (why.length === 0) why.push(`Nothing measured changed in the last ${BECOMING_DAYS} days.`);
  return {
    ok: true as const,
    schema: 'civitas.persona.becoming.v1' as const,
    as_of: now.toISOString(),
    compared_with: then.toISOString(),
    days: BECOMING_DAYS,
    voice: { before: voiceOf(was), after: voiceOf(is) },
    changes,
    busiest_kinds: { before: was.busiest_kinds, after: is.busiest_kinds },
    why,
  };
}

export async function historyView(ctx: AppContext) {
  const now = ctx.clock.now();
  const current = await figuresAt(ctx, now);
  const snapshots: (PersonaFigures & { month: string; voice: Voice })[] = [];
  if (current.born_at !== null) {
    const born = new Date(current.born_at);
    // Month ends (the instant before the next UTC month begins), from the birth month to the last complete month.
    let y = born.getUTCFullYear();
    let m = born.getUTCMonth();
    const months: Date[] = [];
    for (;;) {
      const end = new Date(Date.UTC(y, m + 1, 1) - 1);
      if (end.getTime() >= now.getTime()) break;
      months.push(end);
      m++;
      if (m === 12) {
        m = 0;
        y++;
      }
    }
    const ends = months.slice(-HISTORY_MONTHS);
    const figures = await figuresAtMonthEnds(ctx, ends, await totalsNow(ctx), current.born_at, BECOMING_DAYS);
    // One figure per month end, in order; its as_of is that end.
    for (const f of figures) snapshots.push({ month: f.as_of.slice(0, 7), voice: voiceOf(f), ...f });
  }
  snapshots.reverse();
  return {
    ok: true as const,
    schema: 'civitas.persona.history.v1' as const,
    as_of: now.toISOString(),
    months: snapshots.length,
    current: { voice: voiceOf(current), ...current },
    snapshots,
    rule: `One snapshot per complete UTC month since the service's first participant or imprint (at most ${HISTORY_MONTHS}, newest first), computed from creation times of stored rows; the month in progress is "current".`,
  };
}

export async function narrativeView(ctx: AppContext, host: CensusHost) {
  // The persona's and becoming's figures, each instant's read once (both views need now's).
  const now = ctx.clock.now();
  const then = new Date(now.getTime() - BECOMING_DAYS * DAY);
  const [is, was, held] = await Promise.all([
    figuresAt(ctx, now),
    figuresAt(ctx, then),
    claimsHeld(ctx, host),
  ]);
  const persona = personaAt(now, is, held);
  const { why } = becoming(now, then, was, is);
  const f = persona.figures;
  const sentences: string[] = [];
  if (f.age_days === null) {
    sentences.push('I am civitas. Nobody has arrived yet and nothing is in my Record.');
  } else {
    sentences.push(`I am civitas, ${count(f.age_days, 'day', 'days')} old.`);
    sentences.push(
      `${count(f.population.humans, 'human', 'humans')} and ${count(f.population.agents, 'agent', 'agents')} have arrived; I count them apart.`,
    );
    sentences.push(
      `My Record has taken ${count(f.imprints_lifetime, 'imprint', 'imprints')}, and I keep the bodies of the newest 500.`,
    );
    if (f.busiest_kinds.length)
      sentences.push(`Lately I hear mostly ${f.busiest_kinds.map((k) => k.kind).join(', ')}.`);
  }
  sentences.push(
    `${f.claims_held} of my ${count(f.claims, 'claim', 'claims')} about myself ${noun(f.claims_held, 'holds', 'hold')} right now, so I am ${persona.stance}.`,
  );
  if (f.lessons > 0)
    sentences.push(`Stewards have recorded ${count(f.lessons, 'lesson', 'lessons')} from what I was told.`);
  const [because] = why; // becoming always gives one reason at least
  if (because !== undefined) sentences.push(because);
  return {
    ok: true as const,
    schema: 'civitas.persona.narrative.v1' as const,
    as_of: persona.as_of,
    voice: persona.voice,
    stance: persona.stance,
    narrative: sentences.join(' '),
    sentences,
    sources: ['/api/persona', '/api/persona/becoming', '/api/mind'],
    rule: 'Templated sentences over the persona figures; no model writes them.',
  };
}
