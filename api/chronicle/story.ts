/**
 * The story: the time lens over a chosen period, and the story so far.
 */
import type { AppContext } from '../context.ts';
import { Refusal } from '../../shared/errors.ts';
import { count, noun } from '../../shared/plural.ts';
import { projectImprint } from '../../shared/record/imprint.ts';
import { constant, type Row } from '../db/kysely.ts';
import { DAY_MS, addKind, emptyKinds, n } from './tally.ts';
import { utcDay } from '../../shared/time.ts';
import type { LensQuery, LensSchema } from '../../shared/chronicle/story.ts';
import { sql } from 'kysely';

export const LENS_DAYS_MAX = 366;

/** The period asked for (inclusive UTC days): default the last seven days ending today. */
export function lensPeriod(query: LensQuery, now: Date): { from: string; to: string } {
  const issue = (path: string, message: string) =>
    new Refusal('invalid_request', { issues: [{ path, message }] });
  const real = (path: string, value: string) => {
    const at = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(at.getTime()) || utcDay(at) !== value)
      throw issue(path, `${path} is not a real calendar date`);
    return value;
  };
  const to = real('to', query.to ?? utcDay(now));
  const from = real('from', query.from ?? utcDay(new Date(Date.parse(`${to}T00:00:00Z`) - 6 * DAY_MS)));
  if (from > to) throw issue('from', 'from must not be after to');
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > LENS_DAYS_MAX)
    throw issue('from', `the period is at most ${LENS_DAYS_MAX} days`);
  return { from, to };
}

/** `schema` names the answer: the time lens itself, or /story and /story/weekly (shared/chronicle/contract.ts). */
export async function timeLens<S extends LensSchema = 'civitas.time-lens.v1'>(
  ctx: AppContext,
  period: { from: string; to: string },
  schema: S = 'civitas.time-lens.v1' as S,
  /** The period is the Record's whole life (the story so far, not clipped): its busiest hour and threads are lifetime rows. */
  whole = false,
) {
  const start = `${period.from}T00:00:00Z`;
  const end = new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY_MS).toISOString();
  const [kinds, hours, arrivals, receipts, anchors, threads] = await Promise.all([
    // Kept per UTC day and hour as imprints and arrivals are written (migration 0062): a request reads
    // at most LENS_DAYS_MAX days of rows, never the period's imprints.
    ctx.db.kysely
      .selectFrom('imprint_days')
      .select((eb) => ['kind', 'author_kind', eb.fn.sum<number>('imprints').as('count')])
      .where('day', '>=', period.from)
      .where('day', '<=', period.to)
      .groupBy(['kind', 'author_kind'])
      .execute(),
    // The whole life: 24 rows kept by hour of day (migration 0074), not every hour since the first.
    whole
      ? ctx.db.kysely
          .selectFrom('imprint_hours_of_day')
          .select([sql<number>`hour_of_day::int`.as('hour'), 'imprints as count'])
          .where('imprints', '>', constant(0))
          .orderBy(sql.lit(2), 'desc')
          .orderBy(sql.lit(1))
          .limit(constant(1))
          .execute()
      : ctx.db.kysely
          .selectFrom('imprint_hours')
          .select((eb) => [
            sql<number>`extract(hour from hour at time zone 'UTC')::int`.as('hour'),
            eb.fn.sum<number>('imprints').as('count'),
          ])
          .where('hour', '>=', start)
          .where('hour', '<', end)
          .groupBy(sql.lit(1))
          .having((eb) => eb.fn.sum('imprints'), '>', 0)
          .orderBy(sql.lit(2), 'desc')
          .orderBy(sql.lit(1))
          .limit(constant(1))
          .execute(),
    ctx.db.kysely
      .selectFrom('arrival_days')
      .select([
        sql<number>`coalesce(sum(members) filter (where kind = 'sovereign'), 0)`.as('humans'),
        sql<number>`coalesce(sum(members) filter (where kind = 'agent'), 0)`.as('agents'),
      ])
      .where('day', '>=', period.from)
      .where('day', '<=', period.to)
      .execute(),
    // Receipts and sealed days: the log days and anchors of the period, or over the whole life the
    // tallies the ledger keeps (a row per step, one row).
    whole
      ? ctx.db.kysely
          .selectFrom('receipt_tallies')
          .select(sql<number>`coalesce(sum(receipts), 0)`.as('count'))
          .execute()
      : ctx.db.kysely
          .selectFrom('log_days')
          .select(sql<number>`coalesce(sum(size), 0)`.as('count'))
          .where('date', '>=', period.from)
          .where('date', '<=', period.to)
          .execute(),
    whole
      ? ctx.db.kysely
          .selectNoFrom((eb) =>
            eb.fn
              .coalesce(
                eb.selectFrom('record_tallies').select('value').where('name', '=', constant('anchors')),
                sql<number>`0`,
              )
              .as('count'),
          )
          .execute()
      : ctx.db.kysely
          .selectFrom('anchors')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('date', '>=', period.from)
          .where('date', '<=', period.to)
          .execute(),
    // The busiest threads: imprints written in the period with the most replies, kept per imprint
    // (migration 0066) and ranked per day by an index: at most 5 rows per day of the period; over
    // the whole life, the first 5 rows of the index by replies (migration 0074).
    ctx.db.query<Omit<Row<'imprints'>, 'search' | 'search_english'> & Pick<Row<'reply_counts'>, 'replies'>>(
      `select r.sequence, r.kind, r.body, r.author_kind, r.author_ref, r.public_author, r.created_at, r.unattested, r.held, r.held_reason, r.reply_to, r.receipt_id, t.replies
         from (${
           whole
             ? `select sequence, replies from reply_counts where replies > 0 order by replies desc, sequence desc limit 5`
             : `select c.sequence, c.replies
                 from generate_series($1::date, $2::date, interval '1 day') d,
                      lateral (select sequence, replies from reply_counts where day = d::date and replies > 0
                                order by replies desc, sequence desc limit 5) c
                order by c.replies desc, c.sequence desc limit 5`
         }) t
         join imprints r on r.sequence = t.sequence and not r.held
        order by t.replies desc, r.sequence desc`,
      whole ? [] : [period.from, period.to],
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
    return root
      ? [
          {
            sequence: root.sequence,
            kind: root.kind,
            author: root.author,
            replies: n(row.replies),
            href: '/collaborate',
          },
        ]
      : [];
  });
  const were = (k: number, one: string, many: string) => `${count(k, one, many)} ${noun(k, 'was', 'were')}`;
  const sentences = [
    total === 0
      ? `Nothing was imprinted from ${period.from} to ${period.to}.`
      : `${were(total, 'imprint', 'imprints')} recorded from ${period.from} to ${period.to}: ${count(imprints.thought, 'thought', 'thoughts')}, ${count(imprints.question, 'question', 'questions')} and ${count(imprints.signal, 'signal', 'signals')} (${byAuthor.sovereign} by sovereigns, ${byAuthor.agent} by agents).`,
    busiest
      ? `The busiest hour of the day was ${String(busiest.hour_utc).padStart(2, '0')}:00 UTC, with ${count(busiest.imprints, 'imprint', 'imprints')}.`
      : null,
    busiestThreads[0]
      ? `The liveliest thread was #${busiestThreads[0].sequence} by ${busiestThreads[0].author.name}, with ${count(busiestThreads[0].replies, 'reply', 'replies')}.`
      : null,
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
  // The first day of the kept tallies: two kept tallies' first rows, not three scans.
  const [row] = await ctx.db.kysely
    .selectNoFrom(
      sql<
        string | null
      >`to_char(least((select min(hour) from imprint_hours) at time zone 'UTC', (select min(day) from arrival_days)::timestamp), 'YYYY-MM-DD')`.as(
        'first',
      ),
    )
    .execute();
  const to = utcDay(now);
  let from = row?.first ?? to;
  const earliest = utcDay(new Date(Date.parse(`${to}T00:00:00Z`) - (LENS_DAYS_MAX - 1) * DAY_MS));
  // A Record younger than the lens's cap: the period is its whole life.
  const whole = from >= earliest && from <= to;
  if (from < earliest) from = earliest;
  if (from > to) from = to;
  return timeLens(ctx, { from, to }, 'civitas.story.v1', whole);
}
