import pg from 'pg';

/**
 * One set of JavaScript types for both drivers, in one table read by both: an int8 (and int8[]) and a
 * numeric are numbers, a date, timestamp, timestamptz or interval is the string PostgreSQL sends.
 * Without it, node-postgres hands out int8 and numeric as strings and PGlite int8 as a number, and
 * PGlite parses timestamps into Dates where node-postgres (as MikroORM configures it) keeps strings —
 * so every row type would be `string | number`.
 *
 * A number is exact up to 2^53 (9.007e15). The int8 columns are sequences, counts and tallies
 * (imprints, receipts, replies, requests), sizes and milliseconds summed per minute: the largest
 * grows by one per imprint or request, nine thousand million million away. The money columns
 * (`amount_cents`, `daily_cents`, `per_authorization_cents`) are cents, written only through
 * contracts whose `z.number().int()` accepts safe integers alone (a price is at most 1,000,000). A numeric here is only ever computed — `sum()` of an int8 column,
 * `extract(epoch …)` — never a stored decimal; sums of the same counters and seconds since 1970 with
 * microseconds are exact or within a microsecond. A column that could pass 2^53 would need its own
 * parser (a bigint or a string), not this one.
 */
const INT8 = 20;
const NUMERIC = 1700;
/** int8[] and numeric[]: parsed item by item from PostgreSQL's array text. */
const INT8_ARRAY = 1016;
const NUMERIC_ARRAY = 1231;
/** date, timestamp, timestamptz, interval: kept as PostgreSQL's text, as MikroORM does on node-postgres. */
const TEXT_TIMES = [1082, 1114, 1184, 1186];
/** Their arrays: arrays of that text. */
const TEXT_TIME_ARRAYS = [1182, 1115, 1185, 1187];

/** text[]'s parser from node-postgres's registry (not among its named builtins): array text → (string | null)[]. */
const TEXT_ARRAY = 1009 as Parameters<typeof pg.types.getTypeParser>[0];
const parseTextArray = (value: string) =>
  (pg.types.getTypeParser(TEXT_ARRAY, 'text') as (text: string) => (string | null)[])(value);
const numbers = (value: string) => parseTextArray(value).map((item) => (item === null ? null : Number(item)));

/** oid → the parser of PostgreSQL's text form; PGlite takes it as its `parsers` option. */
export const WIRE_PARSERS: Record<number, (value: string) => unknown> = {
  [INT8]: Number,
  [NUMERIC]: Number,
  [INT8_ARRAY]: numbers,
  [NUMERIC_ARRAY]: numbers,
  ...Object.fromEntries(TEXT_TIMES.map((oid) => [oid, (value: string) => value])),
  ...Object.fromEntries(TEXT_TIME_ARRAYS.map((oid) => [oid, parseTextArray])),
};

/**
 * node-postgres: the same table as the pool's own `types` option (it replaces MikroORM's, which only
 * keeps the times as text), so pg's global registry, and any other client in the process, stay as pg
 * ships them.
 */
export function wireTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  for (const [oid, parse] of Object.entries(WIRE_PARSERS)) types.setTypeParser(Number(oid), 'text', parse);
  return types;
}
