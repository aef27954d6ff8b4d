/**
 * Dreaming: once per UTC day the `organism.dreaming` job (one process, advisory lock, date primary
 * key) synthesises the most distinctive terms of that UTC day's learnable retained bodies, once the day is over
 * (not held, not quarantined), against the whole retained window as background (ts_stat), and keeps
 * them as a dream: terms and counts only, never a body, so the history survives evictions.
 */
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/database.ts';
import { recordReceipt } from '../../ledger/receipts.ts';
import { DAY } from '../vitals/vitals.ts';
import { learnableBodies, termsBetween } from './terms.ts';
import { count } from '../../../shared/plural.ts';
import { utcDay } from '../../../shared/time.ts';
import type { DreamTerm, dreamingSchema } from '../../../shared/organism/contract/themes.ts';
import type { z } from 'zod';
import type { RowOf } from '../../db/rows.ts';
import { constant } from '../../db/kysely.ts';
import type { Dream } from '../entities.ts';
import { sql as fragment } from 'kysely';

export type { DreamTerm };

export const DREAM_LOCK = 7_212_015;
const DREAM_TERMS = 12;
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** Distinctive terms of [from, to): documents that day × log(background bodies / background documents). */
export async function dreamTerms(
  ctx: AppContext,
  from: Date,
  to: Date,
): Promise<{ bodies: number; terms: DreamTerm[] }> {
  const epoch = new Date(0);
  const [bodies, day, backgroundBodies, background] = await Promise.all([
    learnableBodies(ctx.db, from, to),
    termsBetween(ctx.db, from, to, 60),
    learnableBodies(ctx.db, epoch, to),
    termsBetween(ctx.db, epoch, to, 5_000),
  ]);
  const bg = new Map(background.map((t) => [t.term, t.documents]));
  const terms = day
    .map((t) => ({
      term: t.term,
      count: t.documents,
      score:
        Math.round(
          t.documents * Math.log((backgroundBodies + 1) / ((bg.get(t.term) ?? t.documents) + 0.5)) * 1000,
        ) / 1000,
    }))
    .filter((t) => t.count >= 2 || bodies < 5)
    .sort((a, b) => b.score - a.score || b.count - a.count || a.term.localeCompare(b.term))
    .slice(0, DREAM_TERMS);
  return { bodies, terms };
}

/** At most this many missed days are dreamt in one run (after a long outage), oldest first. */
export const DREAM_BACKFILL_DAYS = 31;
const nextDay = (date: string) => utcDay(new Date(Date.parse(`${date}T00:00:00Z`) + DAY));

/**
 * The job: one dream per UTC day, made once that day is over and covering exactly that day
 * ([00:00, 24:00) UTC), whatever time the job runs. Days missed since the last dream (the service
 * was down) are dreamt in order, at most DREAM_BACKFILL_DAYS back; with no dream yet, yesterday.
 */
export async function dreamJob(ctx: AppContext): Promise<{ made: boolean; date: string; dates: string[] }> {
  const now = ctx.clock.now();
  const today = utcDay(now);
  const yesterday = utcDay(new Date(Date.parse(`${today}T00:00:00Z`) - DAY));
  const earliest = utcDay(new Date(Date.parse(`${today}T00:00:00Z`) - DREAM_BACKFILL_DAYS * DAY));
  const [last] = await ctx.db.kysely
    .selectFrom('dreams')
    .select(fragment<string | null>`to_char(max(date), 'YYYY-MM-DD')`.as('date'))
    .execute();
  let date = last?.date ? nextDay(last.date) : yesterday;
  if (date < earliest) date = earliest;
  const dates: string[] = [];
  for (; date <= yesterday; date = nextDay(date)) {
    const made = await dreamOf(ctx, date, now);
    if (made === 'locked') break; // another process is dreaming now; it goes on from here
    if (made) dates.push(date);
  }
  return { made: dates.length > 0, date: dates.at(-1) ?? yesterday, dates };
}

/** Makes the dream of one UTC day under the lock (false: it exists already). */
async function dreamOf(ctx: AppContext, date: string, now: Date): Promise<boolean | 'locked'> {
  const from = new Date(`${date}T00:00:00.000Z`);
  const to = new Date(from.getTime() + DAY);
  const { bodies, terms } = await dreamTerms(ctx, from, to);
  return ctx.db.transaction(async (tx) => {
    const [lock] = await tx.kysely
      .selectNoFrom((eb) => eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(DREAM_LOCK)]).as('locked'))
      .execute();
    if (!lock?.locked) return 'locked' as const;
    const [again] = await tx.query('select 1 from dreams where date = $1', [date]);
    if (again) return false;
    const receipt = await recordReceipt(tx, { step: 'organism.dream', subject: `dream:${date}`, at: now });
    await tx.query(
      'insert into dreams (date, window_start, window_end, bodies, terms, made_at, receipt_id) values ($1, $2, $3, $4, $5::jsonb, $6, $7)',
      [
        date,
        from.toISOString(),
        to.toISOString(),
        bodies,
        JSON.stringify(terms),
        now.toISOString(),
        receipt.id,
      ],
    );
    return true;
  });
}

/** How many dreams are stored: the tally their trigger keeps (migration 0082), not a count of the rows. */
export async function dreamsKept(sql: Sql): Promise<number> {
  const [row] = await sql.kysely
    .selectFrom('record_tallies')
    .select('value')
    .where('name', '=', constant('dreams'))
    .execute();
  return Number(row?.value ?? 0);
}

export async function dreamingView(ctx: AppContext) {
  const rows = await ctx.db.query<
    Pick<RowOf<typeof Dream>, 'date' | 'window_start' | 'window_end' | 'bodies' | 'terms' | 'receipt_id'>
  >(
    `select to_char(date, 'YYYY-MM-DD') as date, to_char(window_start at time zone 'UTC', ${ISO}) as window_start,
            to_char(window_end at time zone 'UTC', ${ISO}) as window_end, bodies, terms, receipt_id
       from dreams order by date desc limit 30`,
  );
  const total = await dreamsKept(ctx.db);
  const dreams = rows.map((row) => ({
    date: row.date,
    window_start: row.window_start,
    window_end: row.window_end,
    bodies: row.bodies,
    terms: (row.terms as DreamTerm[]).map((t) => ({
      term: String(t.term),
      count: t.count,
      score: t.score,
    })),
    receipt_id: row.receipt_id,
  }));
  return {
    ok: true as const,
    schema: 'civitas.dreaming.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    dreams_total: total,
    latest: dreams[0] ?? null,
    dreams,
    method:
      "Once per UTC day, after it is over, the terms of that day's retained bodies that are neither held nor quarantined, ranked by documents × log(retained bodies / retained documents with the term) (ts_stat). Only terms and counts are kept.",
  };
}

export type Dreaming = z.infer<typeof dreamingSchema>;
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function dreamingCard(d: Dreaming): string {
  const line = (y: number, size: number, text: string) =>
    `<text x="30" y="${y}" font-family="sans-serif" font-size="${size}" fill="#1d2329">${escapeXml(text)}</text>`;
  const terms = d.latest?.terms.slice(0, 8) ?? [];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="315" viewBox="0 0 600 315" role="img" aria-label="civitas dreaming">
<rect width="600" height="315" fill="#f4f1fa"/>
${line(44, 24, 'civitas — dreaming')}
${line(80, 16, d.latest ? `Dream of ${d.latest.date}: ${count(d.latest.bodies, 'body', 'bodies')}` : 'No dream yet.')}
${terms.map((t, i) => line(118 + i * 22, 15, `${t.term} (${t.count})`)).join('\n')}
<text x="30" y="298" font-family="sans-serif" font-size="12" fill="#4a535c">${escapeXml(`${count(d.dreams_total, 'dream', 'dreams')} kept · as of ${d.as_of}`)}</text>
</svg>`;
}
