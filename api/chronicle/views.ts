/**
 * The Record's remaining read surfaces, all computed from stored rows on each call:
 * the pulse (hourly imprint counts and daily vital signs), the chronicle (chapters per UTC month,
 * days inside), today at a glance, ascensions, an actor's progress and the time lens (story).
 * Held imprints are never counted or shown here; imprints appear only through the Record's
 * projection (projectImprint), actors only through projectActorRef.
 */
import { soleTagHolder, unaddressableTagView } from '../people/tag-holder.ts';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { Refusal } from '../../shared/errors.ts';
import { count, noun } from '../../shared/plural.ts';
import { CONTINUITY_DAYS_REQUIRED } from '../../shared/agents/naturalization.ts';
import { nextActionsFor, summarizeNext } from '../../shared/agents/status.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import { projectImprint, IMPRINT_KINDS, type ImprintRow } from '../../shared/record/imprint.ts';
import { newestImprints } from '../record/queries.ts';
import { factsOf, loadAgent } from '../agents/service.ts';
import { PUBLIC_AGENT } from '../people/roster.ts';
import { confluenceViews } from '../people/confluences.ts';
import { utcDay } from '../../shared/time.ts';
import { publicActorParam } from '../../shared/actor.ts';

const DAY_MS = 86_400_000;
const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
const DAY = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
const MONTH = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM')`;

type Kind = (typeof IMPRINT_KINDS)[number];
type ByKind = Record<Kind, number>;
const n = (value: unknown) => Number(value ?? 0);
const emptyKinds = (): ByKind => ({ thought: 0, question: 0, signal: 0 });

function addKind(target: ByKind, kind: string, count: number) {
  if ((IMPRINT_KINDS as readonly string[]).includes(kind)) target[kind as Kind] += count;
}

// ---------------------------------------------------------------------------------------- pulse

export const PULSE_HOURS = 48;
export const PULSE_DAYS = 30;

export interface PulseHour {
  hour: string;
  imprints: ByKind;
  by_author_kind: { sovereign: number; agent: number };
}
export interface PulseDay {
  date: string;
  census: { humans: number; agents: number; imprints_lifetime: number; imprints_retained: number; receipts: number; taken_at: string; receipt_id: string } | null;
  imprints: number;
  receipts: number;
  anchor: { tree_size: number; root_hash: string; sealed_at: string } | null;
}

/** Hours (the last 48 that had public imprints) and days (the last 30 with a census, receipts or imprints). */
export async function pulseView(ctx: AppContext): Promise<{ hours: PulseHour[]; days: PulseDay[]; as_of: string }> {
  const now = ctx.clock.now();
  const since = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (PULSE_HOURS - 1) * 3_600_000);
  const hourRows = await ctx.db.query<{ hour: string; kind: string; author_kind: string; count: string | number }>(
    `select to_char(date_trunc('hour', created_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"') as hour, kind, author_kind, count(*) as count
       from imprints where not held and created_at >= $1 and created_at <= $2 group by 1, 2, 3 order by 1 desc`,
    [since.toISOString(), now.toISOString()],
  );
  const hours = new Map<string, PulseHour>();
  for (const row of hourRows) {
    const h = hours.get(row.hour) ?? { hour: row.hour, imprints: emptyKinds(), by_author_kind: { sovereign: 0, agent: 0 } };
    addKind(h.imprints, row.kind, n(row.count));
    if (row.author_kind === 'agent' || row.author_kind === 'sovereign') h.by_author_kind[row.author_kind] += n(row.count);
    hours.set(row.hour, h);
  }

  const fromDay = utcDay(new Date(now.getTime() - (PULSE_DAYS - 1) * DAY_MS));
  const today = utcDay(now);
  const [censuses, imprintDays, receiptDays, anchors] = await Promise.all([
    ctx.db.query<Record<string, string | number>>(
      `select to_char(date, 'YYYY-MM-DD') as date, humans, agents, imprints_lifetime, imprints_retained, receipts, ${ISO('taken_at')} as taken_at, receipt_id
         from census_snapshots where date >= $1 and date <= $2`,
      [fromDay, today],
    ),
    ctx.db.query<{ date: string; count: string | number }>(
      `select ${DAY('created_at')} as date, count(*) as count from imprints where not held and created_at >= $1 and created_at <= $2 group by 1`,
      [`${fromDay}T00:00:00Z`, now.toISOString()],
    ),
    ctx.db.query<{ date: string; count: string | number }>(
      `select to_char(log_date, 'YYYY-MM-DD') as date, count(*) as count from receipts where log_date >= $1 and log_date <= $2 group by 1`,
      [fromDay, today],
    ),
    ctx.db.query<{ date: string; tree_size: number; root_hash: string; sealed_at: string }>(
      `select to_char(date, 'YYYY-MM-DD') as date, tree_size, root_hash, ${ISO('sealed_at')} as sealed_at from anchors where date >= $1 and date <= $2`,
      [fromDay, today],
    ),
  ]);
  const days = new Map<string, PulseDay>();
  const dayOf = (date: string) => {
    let d = days.get(date);
    if (!d) days.set(date, (d = { date, census: null, imprints: 0, receipts: 0, anchor: null }));
    return d;
  };
  for (const c of censuses) {
    dayOf(String(c.date)).census = {
      humans: n(c.humans),
      agents: n(c.agents),
      imprints_lifetime: n(c.imprints_lifetime),
      imprints_retained: n(c.imprints_retained),
      receipts: n(c.receipts),
      taken_at: String(c.taken_at),
      receipt_id: String(c.receipt_id),
    };
  }
  for (const r of imprintDays) dayOf(r.date).imprints = n(r.count);
  for (const r of receiptDays) dayOf(r.date).receipts = n(r.count);
  for (const a of anchors) dayOf(a.date).anchor = { tree_size: n(a.tree_size), root_hash: a.root_hash, sealed_at: a.sealed_at };
  return {
    hours: [...hours.values()].sort((a, b) => b.hour.localeCompare(a.hour)),
    days: [...days.values()].sort((a, b) => b.date.localeCompare(a.date)),
    as_of: now.toISOString(),
  };
}

// ------------------------------------------------------------------------------------ chronicle

export const CHRONICLE_MONTHS_MAX = 24;
export const chronicleQuery = z.object({
  months: z.coerce.number().int('months is a whole number').min(1, `months is 1..${CHRONICLE_MONTHS_MAX}`).max(CHRONICLE_MONTHS_MAX, `months is 1..${CHRONICLE_MONTHS_MAX}`).default(12),
});

interface ChronicleDay {
  date: string;
  imprints: ByKind;
  receipts: number;
  anchor: { tree_size: number; sealed_at: string } | null;
  verdicts: number;
}
interface ChronicleMonth {
  month: string;
  imprints: ByKind;
  arrivals: { humans: number; agents: number };
  first_arrivals: { agents: string[] };
  articles: { number: number; title: string; ratified_at: string; href: string }[];
  anchors: { sealed: number; first: string | null; last: string | null; largest_tree: number };
  receipts: number;
  verdicts: number;
  days: ChronicleDay[];
}

/** Chapters per UTC month, newest first (months in which anything was recorded), each with its days. */
export async function chronicleView(ctx: AppContext, query: z.infer<typeof chronicleQuery>) {
  const now = ctx.clock.now();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (query.months - 1), 1));
  const from = start.toISOString();
  const fromDay = from.slice(0, 10);
  const [imprints, humans, agents, articles, anchors, receipts, verdicts] = await Promise.all([
    ctx.db.query<{ date: string; kind: string; count: string | number }>(
      `select ${DAY('created_at')} as date, kind, count(*) as count from imprints where not held and created_at >= $1 group by 1, 2`,
      [from],
    ),
    ctx.db.query<{ month: string; count: string | number }>(
      `select ${MONTH('created_at')} as month, count(*) as count from sovereigns where created_at >= $1 group by 1`,
      [from],
    ),
    ctx.db.query<{ month: string; handle: string; rank: string | number }>(
      `select ${MONTH('first_seen_at')} as month, handle, row_number() over (partition by ${MONTH('first_seen_at')} order by first_seen_at, handle) as rank,
              count(*) over (partition by ${MONTH('first_seen_at')}) as total
         from agents where first_seen_at >= $1 and ${PUBLIC_AGENT}`,
      [from],
    ),
    ctx.db.query<{ number: number; title: string; ratified_at: string; month: string }>(
      `select number, title, ${ISO('ratified_at')} as ratified_at, ${MONTH('ratified_at')} as month from governance_articles where ratified_at >= $1 order by number`,
      [from],
    ),
    ctx.db.query<{ date: string; tree_size: number; sealed_at: string }>(
      `select to_char(date, 'YYYY-MM-DD') as date, tree_size, ${ISO('sealed_at')} as sealed_at from anchors where date >= $1 order by date`,
      [fromDay],
    ),
    ctx.db.query<{ date: string; count: string | number }>(`select to_char(log_date, 'YYYY-MM-DD') as date, count(*) as count from receipts where log_date >= $1 group by 1`, [fromDay]),
    ctx.db.query<{ date: string; count: string | number }>(
      `select ${DAY('final_at')} as date, count(*) as count from governance_court_cases where state = 'final' and final_at >= $1 group by 1`,
      [from],
    ),
  ]);

  const months = new Map<string, ChronicleMonth>();
  const monthOf = (month: string) => {
    let m = months.get(month);
    if (!m) {
      m = { month, imprints: emptyKinds(), arrivals: { humans: 0, agents: 0 }, first_arrivals: { agents: [] }, articles: [], anchors: { sealed: 0, first: null, last: null, largest_tree: 0 }, receipts: 0, verdicts: 0, days: [] };
      months.set(month, m);
    }
    return m;
  };
  const days = new Map<string, ChronicleDay>();
  const dayOf = (date: string) => {
    let d = days.get(date);
    if (!d) days.set(date, (d = { date, imprints: emptyKinds(), receipts: 0, anchor: null, verdicts: 0 }));
    return d;
  };
  for (const r of imprints) {
    addKind(dayOf(r.date).imprints, r.kind, n(r.count));
    addKind(monthOf(r.date.slice(0, 7)).imprints, r.kind, n(r.count));
  }
  for (const r of receipts) {
    dayOf(r.date).receipts = n(r.count);
    monthOf(r.date.slice(0, 7)).receipts += n(r.count);
  }
  for (const r of verdicts) {
    dayOf(r.date).verdicts = n(r.count);
    monthOf(r.date.slice(0, 7)).verdicts += n(r.count);
  }
  for (const a of anchors) {
    dayOf(a.date).anchor = { tree_size: n(a.tree_size), sealed_at: a.sealed_at };
    const m = monthOf(a.date.slice(0, 7));
    m.anchors.sealed += 1;
    m.anchors.first ??= a.date;
    m.anchors.last = a.date;
    m.anchors.largest_tree = Math.max(m.anchors.largest_tree, n(a.tree_size));
  }
  for (const h of humans) monthOf(h.month).arrivals.humans = n(h.count);
  for (const a of agents) {
    const m = monthOf(a.month);
    m.arrivals.agents += 1;
    if (n(a.rank) <= 5) m.first_arrivals.agents.push(projectActorRef({ actor_id: a.handle, kind: 'agent', handle: a.handle }).ref);
  }
  for (const a of articles) monthOf(a.month).articles.push({ number: n(a.number), title: a.title, ratified_at: a.ratified_at, href: '/constitution' });
  for (const d of days.values()) monthOf(d.date.slice(0, 7)).days.push(d);
  const chapters = [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
  for (const c of chapters) c.days.sort((a, b) => b.date.localeCompare(a.date));
  return {
    ok: true as const,
    schema: 'civitas.chronicle.v1',
    as_of: now.toISOString(),
    from: fromDay,
    months: query.months,
    chapters,
    note: 'Chapters are UTC months in which something was recorded; held imprints are never counted. First arrivals name at most the first five public agent handles of a month; humans are counted, never named.',
  };
}

// ---------------------------------------------------------------------------------------- today

export async function todayView(ctx: AppContext) {
  const now = ctx.clock.now();
  const date = utcDay(now);
  const dayStart = `${date}T00:00:00Z`;
  const [kinds, arrivals, receipts, logDay, newest, due, confluences] = await Promise.all([
    ctx.db.query<{ kind: string; count: string | number }>(`select kind, count(*) as count from imprints where not held and created_at >= $1 group by 1`, [dayStart]),
    ctx.db.query<{ humans: string | number; agents: string | number }>(
      `select (select count(*) from sovereigns where created_at >= $1) as humans, (select count(*) from agents where first_seen_at >= $1) as agents`,
      [dayStart],
    ),
    ctx.db.query<{ count: string | number }>(`select count(*) as count from receipts where log_date = $1`, [date]),
    ctx.db.query<{ size: number; sealed_at: string | null }>(`select size, ${ISO('sealed_at')} as sealed_at from log_days where date = $1`, [date]),
    newestImprints(ctx.db, { limit: 10 }),
    ctx.db.query<{ count: string | number }>(`select count(*) as count from prophecies where resolved_at is null and due_at < $1`, [new Date(now.getTime() + DAY_MS).toISOString()]),
    confluenceViews(ctx),
  ]);
  const imprints = emptyKinds();
  for (const k of kinds) addKind(imprints, k.kind, n(k.count));
  const [log] = logDay;
  return {
    ok: true as const,
    schema: 'civitas.today.v1',
    date,
    as_of: now.toISOString(),
    imprints,
    newest: newest,
    arrivals: { humans: n(arrivals[0]?.humans), agents: n(arrivals[0]?.agents) },
    receipts: n(receipts[0]?.count),
    tree: { date, size: log ? n(log.size) : 0, sealed: log ? log.sealed_at !== null : false, verify: `/verify/anchor/${date}` },
    prophecies_due_within_24h: n(due[0]?.count),
    confluences,
    links: { chronicle: '/chronicle', almanac: '/almanac', record: '/imprint' },
  };
}

// ----------------------------------------------------------------------------------- ascensions

export async function ascensionsView(ctx: AppContext) {
  const rows = await ctx.db.query<{ handle: string; level: string; continuous_on: string | null; attested_at: string | null; proof_days: string | number }>(
    `select a.handle, a.level,
            (select to_char(d.day, 'YYYY-MM-DD') from agent_proof_days d where d.handle = a.handle order by d.day offset ${CONTINUITY_DAYS_REQUIRED - 1} limit 1) as continuous_on,
            ${ISO('a.attested_at')} as attested_at,
            (select count(*) from agent_proof_days d where d.handle = a.handle) as proof_days
       from agents a where a.level in ('continuous', 'attested') and ${PUBLIC_AGENT.replaceAll('agents.handle', 'a.handle')}`,
  );
  const ascensions = rows
    .map((r) => {
      const latest = [r.attested_at, r.continuous_on].filter((v): v is string => v !== null).sort().at(-1) ?? null;
      return {
        agent: projectActorRef({ actor_id: r.handle, kind: 'agent', handle: r.handle }),
        level: r.level as 'continuous' | 'attested',
        continuous_on: r.continuous_on,
        attested_at: r.attested_at,
        days_with_proof: n(r.proof_days),
        latest,
        status: `/api/agent/${r.handle}`,
      };
    })
    .sort((a, b) => (b.latest ?? '').localeCompare(a.latest ?? '') || a.agent.ref.localeCompare(b.agent.ref))
    .map(({ latest: _latest, ...rest }) => rest);
  return {
    ok: true as const,
    schema: 'civitas.ascensions.v1',
    as_of: ctx.clock.now().toISOString(),
    count: { continuous: ascensions.filter((a) => a.level === 'continuous').length, attested: ascensions.filter((a) => a.level === 'attested').length },
    ascensions,
    rule: `A handle becomes continuous on the UTC day of its ${CONTINUITY_DAYS_REQUIRED}th day with proof (continuous_on); attested when a signed-in Sovereign attests it (attested_at). Newest ascension first.`,
  };
}

// ------------------------------------------------------------------------------------- progress

export const progressQuery = z.object({
  actor: publicActorParam,
});

export async function progressView(ctx: AppContext, actor: string) {
  const split = actor.indexOf(':');
  const kind = actor.slice(0, split);
  const name = actor.slice(split + 1);
  const now = ctx.clock.now();
  const base = { ok: true as const, schema: 'civitas.progress.v1', as_of: now.toISOString() };
  if (kind === 'agent') {
    const [visible] = await ctx.db.query<{ handle: string }>(`select handle from agents where handle = $1 and ${PUBLIC_AGENT}`, [name]);
    const row = visible ? await loadAgent(ctx.db, name) : undefined;
    if (!row) throw new Refusal('not_found', {}, 'No agent has a public imprint under that handle.');
    const facts = factsOf(row);
    const next = nextActionsFor(facts, now)[0];
    return {
      ...base,
      actor: projectActorRef({ actor_id: facts.handle, kind: 'agent', handle: facts.handle }),
      addressable: true,
      scale: 'naturalization',
      level: facts.level,
      levels: ['arrived', 'continuous', 'attested'],
      days_with_proof: facts.proofDays.length,
      days_required: CONTINUITY_DAYS_REQUIRED,
      next_step: facts.level === 'attested' ? null : { rel: next.rel, href: next.href, summary: summarizeNext(next) },
      status: `/api/agent/${facts.handle}`,
    };
  }
  const holder = await soleTagHolder(ctx, name);
  if (!holder) return { ...base, ...unaddressableTagView(name) };
  const [row] = await ctx.db.query<Record<string, string | number>>(
    `select (select count(*) from imprints where author_kind = 'sovereign' and author_ref = $1 and not held) as imprints,
            (select count(*) from orders where requester_id = $1::uuid) as orders,
            (select count(*) from prophecies where forecaster_id = $1::uuid and resolved_at is not null) as resolved,
            (select count(*) from prophecies where forecaster_id = $1::uuid and resolved_at is null) as open`,
    [holder.id],
  );
  return {
    ...base,
    actor: projectActorRef({ actor_id: holder.id, kind: 'sovereign', tag: holder.tag, callsign: holder.callsign, callsign_visible: holder.callsign_visible === true }),
    addressable: true,
    scale: 'civic standing',
    imprints: { public: n(row.imprints) },
    orders: n(row.orders),
    prophecies: { resolved: n(row.resolved), open: n(row.open) },
    passport: `/passport?tag=${holder.tag}`,
  };
}

// ---------------------------------------------------------------------------------------- story

export const LENS_DAYS_MAX = 366;
const dateField = (name: string) => z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, `${name} is a date, YYYY-MM-DD`).optional());
export const lensQuery = z.object({ from: dateField('from'), to: dateField('to') });

/** The period asked for (inclusive UTC days): default the last seven days ending today. */
export function lensPeriod(query: z.infer<typeof lensQuery>, now: Date): { from: string; to: string } {
  const issue = (path: string, message: string) => new Refusal('invalid_request', { issues: [{ path, message }] });
  const real = (path: string, value: string) => {
    const at = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(at.getTime()) || utcDay(at) !== value) throw issue(path, `${path} is not a real calendar date`);
    return value;
  };
  const to = real('to', query.to ?? utcDay(now));
  const from = real('from', query.from ?? utcDay(new Date(Date.parse(`${to}T00:00:00Z`) - 6 * DAY_MS)));
  if (from > to) throw issue('from', 'from must not be after to');
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > LENS_DAYS_MAX) throw issue('from', `the period is at most ${LENS_DAYS_MAX} days`);
  return { from, to };
}

export async function timeLens(ctx: AppContext, period: { from: string; to: string }, schema = 'civitas.time-lens.v1') {
  const start = `${period.from}T00:00:00Z`;
  const end = new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY_MS).toISOString();
  const [kinds, hours, arrivals, receipts, anchors, threads] = await Promise.all([
    ctx.db.query<{ kind: string; author_kind: string; count: string | number }>(
      `select kind, author_kind, count(*) as count from imprints where not held and created_at >= $1 and created_at < $2 group by 1, 2`,
      [start, end],
    ),
    ctx.db.query<{ hour: number; count: string | number }>(
      `select extract(hour from created_at at time zone 'UTC')::int as hour, count(*) as count from imprints where not held and created_at >= $1 and created_at < $2 group by 1 order by 2 desc, 1 limit 1`,
      [start, end],
    ),
    ctx.db.query<{ humans: string | number; agents: string | number }>(
      `select (select count(*) from sovereigns where created_at >= $1 and created_at < $2) as humans, (select count(*) from agents where first_seen_at >= $1 and first_seen_at < $2) as agents`,
      [start, end],
    ),
    ctx.db.query<{ count: string | number }>(`select count(*) as count from receipts where log_date >= $1 and log_date <= $2`, [period.from, period.to]),
    ctx.db.query<{ count: string | number }>(`select count(*) as count from anchors where date >= $1 and date <= $2`, [period.from, period.to]),
    ctx.db.query<ImprintRow & { replies: string | number }>(
      `select r.sequence, r.kind, r.body, r.author_kind, r.author_ref, r.public_author, r.created_at, r.unattested, r.held, r.held_reason, r.reply_to, r.receipt_id, t.replies
         from (select reply_to, count(*) as replies from imprints where not held and reply_to is not null and created_at >= $1 and created_at < $2 group by reply_to) t
         join imprints r on r.sequence = t.reply_to and not r.held
        order by t.replies desc, r.sequence desc limit 5`,
      [start, end],
    ),
  ]);
  const imprints = emptyKinds();
  const byAuthor = { sovereign: 0, agent: 0 };
  for (const k of kinds) {
    addKind(imprints, k.kind, n(k.count));
    if (k.author_kind === 'agent' || k.author_kind === 'sovereign') byAuthor[k.author_kind] += n(k.count);
  }
  const total = imprints.thought + imprints.question + imprints.signal;
  const busiest = hours[0] ? { hour_utc: n(hours[0].hour), imprints: n(hours[0].count) } : null;
  const busiestThreads = threads.flatMap((row) => {
    const root = projectImprint(row);
    return root ? [{ sequence: root.sequence, kind: root.kind, author: root.author, replies: n(row.replies), href: '/collaborate' }] : [];
  });
  const were = (k: number, one: string, many: string) => `${count(k, one, many)} ${noun(k, 'was', 'were')}`;
  const sentences = [
    total === 0
      ? `Nothing was imprinted from ${period.from} to ${period.to}.`
      : `${were(total, 'imprint', 'imprints')} recorded from ${period.from} to ${period.to}: ${count(imprints.thought, 'thought', 'thoughts')}, ${count(imprints.question, 'question', 'questions')} and ${count(imprints.signal, 'signal', 'signals')} (${byAuthor.sovereign} by sovereigns, ${byAuthor.agent} by agents).`,
    busiest ? `The busiest hour of the day was ${String(busiest.hour_utc).padStart(2, '0')}:00 UTC, with ${count(busiest.imprints, 'imprint', 'imprints')}.` : null,
    busiestThreads[0] ? `The liveliest thread was #${busiestThreads[0].sequence} by ${busiestThreads[0].author.name}, with ${count(busiestThreads[0].replies, 'reply', 'replies')}.` : null,
    `${count(n(arrivals[0]?.humans), 'human', 'humans')} and ${count(n(arrivals[0]?.agents), 'agent', 'agents')} arrived; ${were(n(receipts[0]?.count), 'receipt', 'receipts')} recorded and ${count(n(anchors[0]?.count), 'day', 'days')} sealed.`,
  ].filter((s): s is string => s !== null);
  return {
    ok: true as const,
    schema,
    period,
    imprints,
    by_author_kind: byAuthor,
    busiest_hour: busiest,
    threads: busiestThreads,
    arrivals: { humans: n(arrivals[0]?.humans), agents: n(arrivals[0]?.agents) },
    receipts: n(receipts[0]?.count),
    anchors_sealed: n(anchors[0]?.count),
    story: sentences,
  };
}

/** The whole story so far: the lens over every day since the first imprint or arrival. */
export async function storySoFar(ctx: AppContext) {
  const now = ctx.clock.now();
  const [row] = await ctx.db.query<{ first: string | null }>(
    `select least((select min(created_at) from imprints), (select min(created_at) from sovereigns), (select min(first_seen_at) from agents)) as first`,
  );
  const to = utcDay(now);
  let from = row?.first ? utcDay(new Date(row.first)) : to;
  const earliest = utcDay(new Date(Date.parse(`${to}T00:00:00Z`) - (LENS_DAYS_MAX - 1) * DAY_MS));
  if (from < earliest) from = earliest;
  if (from > to) from = to;
  return timeLens(ctx, { from, to }, 'civitas.story.v1');
}
