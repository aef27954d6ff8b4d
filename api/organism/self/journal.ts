/**
 * GET /api/journal: the service's own daily journal, one entry per UTC day written from stored
 * events only — imprints by kind, agents arrived, sovereigns crossed, receipts, anchors sealed,
 * the day's census snapshot, failures — newest first.
 */
import type { AppContext } from '../../context.ts';
import { IMPRINT_KINDS } from '../../../shared/record/imprint.ts';
import { DAY } from '../vitals/vitals.ts';
import { count } from '../../../shared/plural.ts';
import { ALL_IMPRINTS, heldKind, receiptsByDay, shownKind, slotCounts, total } from './tallies.ts';
import type { Row } from '../../db/kysely.ts';
import type { Counts } from '../../db/rows.ts';

/** A UTC day's text and a count of that day. */
type DayCount = Counts<'n'> & { date: string };

const NAMES = [...ALL_IMPRINTS, 'agents', 'sovereigns'];

const n = (value: unknown) => Number(value ?? 0);

async function perDay(
  ctx: AppContext,
  sqlText: string,
  from: string,
  to: string,
): Promise<Map<string, number>> {
  // Raw: one day-count statement shared by several tallies, its text built by the caller.
  const rows = await ctx.db.query<DayCount>(sqlText, [from, to]);
  return new Map(rows.map((row) => [row.date, n(row.n)]));
}

const day = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** The newest `days` UTC days (1..90, the contract's query: shared/organism/contract/self.ts), today first. */
export async function journalView(ctx: AppContext, days: number) {
  const now = ctx.clock.now();
  const end = Math.floor(now.getTime() / DAY) * DAY + DAY;
  const from = new Date(end - days * DAY).toISOString();
  const to = new Date(end).toISOString();
  // Imprints by kind, arrivals and crossings per day: the day tallies the writers keep
  // (tallies.ts), one row per name and day, never the days' rows; receipts: the log days' sizes.
  const [counted, receipts, anchors, failures, censuses] = await Promise.all([
    slotCounts(ctx.db, NAMES, 'day', new Date(end - days * DAY), days),
    receiptsByDay(ctx.db, new Date(end - days * DAY), new Date(end)),
    perDay(
      ctx,
      `select ${day('sealed_at')} as date, count(*) as n from anchors where sealed_at >= $1 and sealed_at < $2 group by 1`,
      from,
      to,
    ),
    perDay(
      ctx,
      `select ${day('at')} as date, count(*) as n from failures where at >= $1 and at < $2 group by 1`,
      from,
      to,
    ),
    ctx.db.query<
      Pick<
        Row<'census_snapshots'>,
        'date' | 'humans' | 'agents' | 'imprints_lifetime' | 'imprints_retained' | 'receipts'
      >
    >(
      `select to_char(date, 'YYYY-MM-DD') as date, humans, agents, imprints_lifetime, imprints_retained, receipts
         from census_snapshots where date >= $1::date and date < $2::date`,
      [from.slice(0, 10), to.slice(0, 10)],
    ),
  ]);
  const censusByDate = new Map(censuses.map((row) => [row.date, row]));
  const entries = [];
  for (let i = 1; i <= days; i++) {
    const date = new Date(end - i * DAY).toISOString().slice(0, 10);
    const counts = counted.get(end - i * DAY)!;
    const byKind: Record<string, number> = Object.fromEntries(
      IMPRINT_KINDS.map((kind) => [kind, total(counts, [shownKind(kind), heldKind(kind)])]),
    );
    const imprints = Object.values(byKind).reduce((a, b) => a + b, 0);
    const census = censusByDate.get(date);
    const entry = {
      date,
      imprints,
      imprints_by_kind: byKind,
      agents_arrived: counts.get('agents') ?? 0,
      sovereigns_crossed: counts.get('sovereigns') ?? 0,
      receipts: receipts.get(end - i * DAY) ?? 0,
      anchors_sealed: anchors.get(date) ?? 0,
      failures: failures.get(date) ?? 0,
      census: census
        ? {
            humans: n(census.humans),
            agents: n(census.agents),
            imprints_lifetime: n(census.imprints_lifetime),
            imprints_retained: n(census.imprints_retained),
            receipts: n(census.receipts),
          }
        : null,
    };
    entries.push({ ...entry, text: sentence(entry) });
  }
  return {
    ok: true as const,
    schema: 'civitas.journal.v1' as const,
    as_of: now.toISOString(),
    days,
    entries,
    rule: 'Each entry is written from stored rows of its UTC day only; nothing is estimated. The day still in progress is the first entry.',
  };
}

function sentence(e: {
  imprints: number;
  imprints_by_kind: Record<string, number>;
  agents_arrived: number;
  sovereigns_crossed: number;
  receipts: number;
  anchors_sealed: number;
  failures: number;
  census: unknown;
}): string {
  const parts: string[] = [];
  if (e.imprints === 0) parts.push('No imprint came in.');
  else
    parts.push(
      `${count(e.imprints, 'imprint', 'imprints')} came in (${Object.entries(e.imprints_by_kind)
        .filter(([, c]) => c > 0)
        .map(([k, c]) => count(c, k, `${k}s`))
        .join(', ')}).`,
    );
  parts.push(
    `${count(e.agents_arrived, 'agent', 'agents')} arrived and ${count(e.sovereigns_crossed, 'sovereign', 'sovereigns')} crossed.`,
  );
  parts.push(
    `${count(e.receipts, 'receipt was', 'receipts were')} recorded; ${count(e.anchors_sealed, 'anchor was', 'anchors were')} sealed.`,
  );
  parts.push(e.failures === 0 ? 'No failure.' : `${count(e.failures, 'failure', 'failures')}.`);
  if (e.census) parts.push('The census of the day was taken.');
  return parts.join(' ');
}
