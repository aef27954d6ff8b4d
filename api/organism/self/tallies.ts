/**
 * Rows created in a period, counted without reading the period's rows: `time_tallies` (migration
 * 0061) keeps per name one row per UTC hour and one per UTC day, moved by the writers' own
 * statements. A period [from, to) reads its whole days and hours from there, and counts only its
 * ragged edges — less than an hour at each end — from the rows themselves, through an index on
 * their time. So a count costs at most 23 + 23 hour rows, one day row per day of the period and
 * two edges of under an hour, whatever the Record's size (docs/organism.md, "Bounded views").
 */
import type { Sql } from '../../db/database.ts';
import { IMPRINT_KINDS, RECORD_WINDOW } from '../../../shared/record/imprint.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Not-held imprints of a kind (`imprints.<kind>`), held ones (`imprints_held.<kind>`). */
export const shownKind = (kind: string) => `imprints.${kind}`;
export const heldKind = (kind: string) => `imprints_held.${kind}`;
/** Every imprint, held or not: the sum of these names. */
export const ALL_IMPRINTS = IMPRINT_KINDS.flatMap((kind) => [shownKind(kind), heldKind(kind)]);

type Source = 'imprints' | 'agents' | 'sovereigns' | 'receipts';

/** Direct counts over [$1, $2) of each source, the names as the triggers of migration 0061 give them. */
const EDGES: Record<Source, string> = {
  imprints: `select v.name, sum(v.delta) as n
       from imprints r cross join lateral (values
         (case when r.held then 'imprints_held.' else 'imprints.' end || r.kind, 1),
         ('imprints_by_agents', (r.author_kind = 'agent')::int),
         ('evictions', (r.sequence > ${RECORD_WINDOW})::int)) v(name, delta)
      where r.created_at >= $1 and r.created_at < $2 group by v.name`,
  agents: `select 'agents' as name, count(*) as n from agents where first_seen_at >= $1 and first_seen_at < $2`,
  sovereigns: `select 'sovereigns' as name, count(*) as n from sovereigns where created_at >= $1 and created_at < $2`,
  receipts: `select 'receipts' as name, count(*) as n from receipts where recorded_at >= $1 and recorded_at < $2`,
};

const sourceOf = (name: string): Source =>
  name.startsWith('imprints') || name === 'evictions' ? 'imprints' : (name as Source);

const ceilTo = (t: number, unit: number) => Math.ceil(t / unit) * unit;
const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;
const stamp = (t: number) => (Number.isFinite(t) ? new Date(t).toISOString() : 'infinity');

export type Counts = Map<string, number>;

/**
 * How many rows of each name were created in [from, to) (`to` null: no end). The names may come
 * from several sources. Exact: the tallies move in the writers' transactions.
 */
export async function countBetween(
  sql: Sql,
  names: readonly string[],
  from: Date,
  to: Date | null,
): Promise<Counts> {
  const a = from.getTime();
  const b = to === null ? Infinity : to.getTime();
  const out: Counts = new Map(names.map((name) => [name, 0]));
  if (!(a < b)) return out;
  const add = (rows: { name: string; n: number }[]) => {
    for (const row of rows) if (out.has(row.name)) out.set(row.name, out.get(row.name)! + row.n);
  };
  const hStart = ceilTo(a, HOUR);
  const hEnd = Number.isFinite(b) ? floorTo(b, HOUR) : Infinity;
  const edges: [number, number][] = [];
  const work: Promise<void>[] = [];
  if (hStart >= hEnd) edges.push([a, b]);
  else {
    if (a < hStart) edges.push([a, hStart]);
    if (hEnd < b) edges.push([hEnd, b]);
    const dStart = ceilTo(hStart, DAY);
    const dEnd = Number.isFinite(hEnd) ? floorTo(hEnd, DAY) : Infinity;
    const ranges: [string, number, number][] =
      dStart >= dEnd
        ? [['hour', hStart, hEnd]]
        : [
            ['hour', hStart, dStart],
            ['day', dStart, dEnd],
            ['hour', dEnd, hEnd],
          ];
    work.push(
      sql
        .query<{ name: string; n: number }>(
          `select name, sum(n) as n from time_tallies
            where name = any($1::text[]) and (${ranges
              .map((_, i) => `(span = $${2 + i * 3} and start >= $${3 + i * 3} and start < $${4 + i * 3})`)
              .join(' or ')})
            group by name`,
          [names, ...ranges.flatMap(([span, s, e]) => [span, stamp(s), stamp(e)])],
        )
        .then(add),
    );
  }
  const sources = [...new Set(names.map(sourceOf))];
  for (const [s, e] of edges)
    for (const source of sources)
      work.push(sql.query<{ name: string; n: number }>(EDGES[source], [stamp(s), stamp(e)]).then(add));
  await Promise.all(work);
  return out;
}

/**
 * Aligned slots: each of `count` consecutive UTC hours or days from `from` (a slot boundary), the
 * tally of each name in it — `count` rows per name, read by key.
 */
export async function slotCounts(
  sql: Sql,
  names: readonly string[],
  span: 'hour' | 'day',
  from: Date,
  count: number,
): Promise<Map<number, Counts>> {
  const unit = span === 'hour' ? HOUR : DAY;
  const start = from.getTime();
  const rows = await sql.query<{ name: string; start: Date | string; n: number }>(
    `select name, start, n from time_tallies
      where name = any($1::text[]) and span = $2 and start >= $3 and start < $4`,
    [names, span, stamp(start), stamp(start + count * unit)],
  );
  const out = new Map<number, Counts>();
  for (let i = 0; i < count; i++) out.set(start + i * unit, new Map(names.map((name) => [name, 0])));
  for (const row of rows) {
    const slot = out.get(new Date(row.start).getTime());
    if (slot) slot.set(row.name, (slot.get(row.name) ?? 0) + row.n);
  }
  return out;
}

/** The sum of some names in a count. */
export const total = (counts: Counts, names: readonly string[]) =>
  names.reduce((sum, name) => sum + (counts.get(name) ?? 0), 0);
