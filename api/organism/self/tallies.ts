/**
 * Rows created in a period, counted without reading the period's rows, from the one system of time
 * tallies the writers keep (migrations 0062 and 0074): `imprint_hours` and `imprint_days` (imprints
 * per UTC hour and day by kind and author kind — not held, held, evicting) and `arrival_days`
 * (sovereigns and agents per UTC day). A period [from, to) reads its whole days and hours from
 * there, and counts only its ragged edges from the rows themselves, through an index on their
 * time: imprints under an hour at each end, arrivals under a day. So a count costs at most
 * 23 + 23 hour rows, one day row per day of the period and two edges, whatever the Record's size
 * (docs/organism.md, "Bounded views"). Receipts per day are the log days' sizes (log_days).
 */
import type { Sql } from '../../db/database.ts';
import { IMPRINT_KINDS, RECORD_WINDOW } from '../../../shared/record/imprint.ts';
import { sql as fragment } from 'kysely';
import type { Row } from '../../db/kysely.ts';
import type { Counts } from '../../db/rows.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Not-held imprints of a kind (`imprints.<kind>`), held ones (`imprints_held.<kind>`). */
export const shownKind = (kind: string) => `imprints.${kind}`;
export const heldKind = (kind: string) => `imprints_held.${kind}`;
/** Every imprint, held or not: the sum of these names. */
export const ALL_IMPRINTS = IMPRINT_KINDS.flatMap((kind) => [shownKind(kind), heldKind(kind)]);

/**
 * The names a count may ask for: the imprint names above, `imprints_by_agents` (held or not),
 * `evictions` (imprints whose sequence is above the window: imprint n evicts n − 500), `agents`
 * (by first-seen time) and `sovereigns` (by crossing time).
 */
type Source = 'imprints' | 'arrivals';

const sourceOf = (name: string): Source =>
  name.startsWith('imprints') || name === 'evictions' ? 'imprints' : 'arrivals';

/** The names of one kept row of imprint_hours or imprint_days (alias k), as (name, n) pairs. */
const IMPRINT_NAMES = `(values ('imprints.' || k.kind, k.imprints), ('imprints_held.' || k.kind, k.held),
    ('imprints_by_agents', case when k.author_kind = 'agent' then k.imprints + k.held else 0 end),
    ('evictions', k.evictions)) v(name, n)`;
const ARRIVAL_NAME = `case k.kind when 'agent' then 'agents' else 'sovereigns' end`;

/** Kept rows per span and source, over [$2, $3), as (name, start, n); `$1` the names asked for. */
const KEPT: Record<'hour' | 'day', Partial<Record<Source, string>>> = {
  hour: {
    imprints: `select v.name, k.hour as start, sum(v.n) as n from imprint_hours k cross join lateral ${IMPRINT_NAMES}
                where k.hour >= $2 and k.hour < $3 and v.name = any($1::text[]) group by 1, 2`,
  },
  day: {
    imprints: `select v.name, k.day::timestamp at time zone 'UTC' as start, sum(v.n) as n from imprint_days k cross join lateral ${IMPRINT_NAMES}
                where k.day >= $2::date and k.day < $3::date and v.name = any($1::text[]) group by 1, 2`,
    arrivals: `select ${ARRIVAL_NAME} as name, k.day::timestamp at time zone 'UTC' as start, sum(k.members) as n from arrival_days k
                where k.day >= $2::date and k.day < $3::date and ${ARRIVAL_NAME} = any($1::text[]) group by 1, 2`,
  },
};
/** The finest span each source keeps. */
const FINEST: Record<Source, number> = { imprints: HOUR, arrivals: DAY };

/**
 * A count's rows of each source over [$1, $2): the kept hours and days, and the rows themselves at
 * the ragged edges, in the kept rows' shape — imprints as (kind, author_kind, imprints, held,
 * evictions), arrivals as (name, n).
 */
const ROWS: Record<Source, Partial<Record<'hour' | 'day' | 'edge', string>>> = {
  imprints: {
    hour: `select kind, author_kind, imprints, held, evictions from imprint_hours where hour >= $1 and hour < $2`,
    day: `select kind, author_kind, imprints, held, evictions from imprint_days where day >= $1::date and day < $2::date`,
    edge: `select kind, author_kind, (not held)::int as imprints, held::int as held,
             (sequence > ${RECORD_WINDOW})::int as evictions
             from imprints where created_at >= $1 and created_at < $2`,
  },
  arrivals: {
    day: `select ${ARRIVAL_NAME} as name, k.members as n from arrival_days k where k.day >= $1::date and k.day < $2::date`,
    edge: `select 'agents' as name, count(*) as n from agents where first_seen_at >= $1 and first_seen_at < $2
             union all select 'sovereigns', count(*) from sovereigns where created_at >= $1 and created_at < $2`,
  },
};

/**
 * A source's rows summed to (name, n): imprints first per kind and author kind (six rows), then
 * named — the names of a few summed rows, not of every kept row (on the embedded database, naming
 * each of 250 kept rows cost milliseconds).
 */
const SUMMED: Record<Source, (rows: string) => string> = {
  imprints: (rows) => `select v.name, sum(v.n) as n from (select kind, author_kind, sum(imprints) as imprints,
      sum(held) as held, sum(evictions) as evictions from (${rows}) r group by kind, author_kind) k
    cross join lateral ${IMPRINT_NAMES} group by v.name`,
  arrivals: (rows) => `select name, sum(n) as n from (${rows}) r group by name`,
};

const ceilTo = (t: number, unit: number) => Math.ceil(t / unit) * unit;
const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;
const stamp = (t: number) => (Number.isFinite(t) ? new Date(t).toISOString() : 'infinity');
/** A bound as its span's rows are keyed: an instant for hours, a UTC date for days. */
const bound = (span: 'hour' | 'day', t: number) => (span === 'day' ? stamp(t).slice(0, 10) : stamp(t));

/** A count per name. */
export type NameCounts = Map<string, number>;
/** A kept or edge row: a name, the start of its hour or day (kept rows only), its count. */
type Tallied = Counts<'n'> & { name: string; start?: Row<'imprint_hours'>['hour'] };

/** [a, b) cut into kept ranges (whole hours, whole days) and ragged edges, for a source kept down to `finest`. */
function cut(a: number, b: number, finest: number) {
  const ranges: ['hour' | 'day', number, number][] = [];
  const edges: [number, number][] = [];
  const fStart = ceilTo(a, finest);
  const fEnd = Number.isFinite(b) ? floorTo(b, finest) : Infinity;
  if (fStart >= fEnd) return { ranges, edges: [[a, b]] as [number, number][] };
  if (a < fStart) edges.push([a, fStart]);
  if (fEnd < b) edges.push([fEnd, b]);
  if (finest === DAY) ranges.push(['day', fStart, fEnd]);
  else {
    const dStart = ceilTo(fStart, DAY);
    const dEnd = Number.isFinite(fEnd) ? floorTo(fEnd, DAY) : Infinity;
    if (dStart >= dEnd) ranges.push(['hour', fStart, fEnd]);
    else ranges.push(['hour', fStart, dStart], ['day', dStart, dEnd], ['hour', dEnd, fEnd]);
  }
  return { ranges: ranges.filter(([, s, e]) => s < e), edges };
}

/** A statement's placeholders `$k` renumbered by `to(k)`. */
const renumber = (text: string, to: (k: number) => number) =>
  text.replace(/\$(\d+)/g, (_, k: string) => `$${to(Number(k))}`);

/**
 * How many rows of each name were created in [from, to) (`to` null: no end). The names may come
 * from several sources. Exact: the tallies move in the writers' transactions. One statement: its
 * kept ranges and ragged edges as branches of one union (each a round trip of its own on the
 * embedded database, where statements run one after another).
 */
export async function countBetween(
  sql: Sql,
  names: readonly string[],
  from: Date,
  to: Date | null,
): Promise<NameCounts> {
  const a = from.getTime();
  const b = to === null ? Infinity : to.getTime();
  const out: NameCounts = new Map(names.map((name) => [name, 0]));
  if (!(a < b)) return out;
  const params: unknown[] = [names];
  // Each range and edge its own two bounds ($1 is the names), so no placeholder is typed twice.
  const bounded = (text: string, from: string, to: string) => {
    const at = params.length + 1;
    params.push(from, to);
    return renumber(text, (k) => at + k - 1);
  };
  const branches: string[] = [];
  for (const source of new Set(names.map(sourceOf))) {
    const { ranges, edges } = cut(a, b, FINEST[source]);
    const rows = [
      ...ranges.map(([span, s, e]) => bounded(ROWS[source][span]!, bound(span, s), bound(span, e))),
      ...edges.map(([s, e]) => bounded(ROWS[source].edge!, stamp(s), stamp(e))),
    ];
    branches.push(SUMMED[source](rows.join('\n union all ')));
  }
  const rows = await sql.query<Tallied>(
    `select name, n from (${branches.join('\n union all ')}) u where name = any($1::text[])`,
    params,
  );
  for (const row of rows) if (out.has(row.name)) out.set(row.name, out.get(row.name)! + row.n);
  return out;
}

/**
 * Aligned slots: each of `count` consecutive UTC hours or days from `from` (a slot boundary), the
 * tally of each name in it — `count` kept rows per name, read by key. Arrivals are kept per day only.
 */
export async function slotCounts(
  sql: Sql,
  names: readonly string[],
  span: 'hour' | 'day',
  from: Date,
  count: number,
): Promise<Map<number, NameCounts>> {
  const unit = span === 'hour' ? HOUR : DAY;
  const start = from.getTime();
  const out = new Map<number, NameCounts>();
  for (let i = 0; i < count; i++) out.set(start + i * unit, new Map(names.map((name) => [name, 0])));
  const rows = await keptRows(sql, names, span, from, new Date(start + count * unit));
  for (const row of rows) {
    const slot = out.get(row.at);
    if (slot) slot.set(row.name, (slot.get(row.name) ?? 0) + row.n);
  }
  return out;
}

/** The kept rows of `names` per `span` whose start is in [from, to) (`to` null: no end). */
export async function keptRows(
  sql: Sql,
  names: readonly string[],
  span: 'hour' | 'day',
  from: Date,
  to: Date | null,
): Promise<{ name: string; at: number; n: number }[]> {
  const sources = [...new Set(names.map(sourceOf))];
  const rows = await Promise.all(
    sources.map((source) => {
      const text = KEPT[span][source];
      if (!text) throw new Error(`${source} are not kept per ${span}`);
      return sql.query<Tallied>(text, [
        names,
        bound(span, from.getTime()),
        bound(span, to === null ? Infinity : to.getTime()),
      ]);
    }),
  );
  return rows.flat().map((row) => ({ name: row.name, at: new Date(row.start!).getTime(), n: row.n }));
}

/** The sum of some names in a count. */
export const total = (counts: NameCounts, names: readonly string[]) =>
  names.reduce((sum, name) => sum + (counts.get(name) ?? 0), 0);

/** Receipts per UTC log day in [from, to) (whole days): the sizes the ledger keeps as it appends. */
export async function receiptsByDay(sql: Sql, from: Date, to: Date | null): Promise<Map<number, number>> {
  const rows = await sql.kysely
    .selectFrom('log_days')
    .select([fragment<string>`to_char(date, 'YYYY-MM-DD')`.as('date'), 'size'])
    .where('date', '>=', fragment<string>`${bound('day', from.getTime())}::date`)
    .where('date', '<', fragment<string>`${bound('day', to === null ? Infinity : to.getTime())}::date`)
    .execute();
  return new Map(rows.map((row) => [Date.parse(`${row.date}T00:00:00Z`), row.size]));
}
