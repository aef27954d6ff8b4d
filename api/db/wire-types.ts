import pg from 'pg';

/**
 * One set of JavaScript types for both drivers, registered once: an int8 (and int8[]) is a number,
 * a date, timestamp, timestamptz or interval is the string PostgreSQL sends. Without this, node-postgres
 * hands out int8 as a string and PGlite as a number, and PGlite parses timestamps into Dates where
 * node-postgres (as MikroORM configures it) keeps strings — so every row type would be `string | number`.
 * Sequences and counts stay far below 2^53, where a number is exact.
 */
const INT8 = 20;
/** int8[]: not among node-postgres's named builtins, though its registry parses it. */
const INT8_ARRAY = 1016 as Parameters<typeof pg.types.setTypeParser>[0];
/** date, timestamp, timestamptz, interval: MikroORM keeps these as strings on node-postgres too. */
const TEXT_TIMES = [1082, 1114, 1184, 1186];

const toNumber = (value: string) => Number(value);

let registered = false;

/** node-postgres: its global type registry, which MikroORM's per-pool overrides fall back to. */
export function registerWireTypes(): void {
  if (registered) return;
  registered = true;
  const parseTextArray = pg.types.getTypeParser(INT8_ARRAY) as (value: string) => (string | null)[];
  pg.types.setTypeParser(INT8, toNumber);
  pg.types.setTypeParser(INT8_ARRAY, (value: string) =>
    parseTextArray(value).map((item) => (item === null ? null : Number(item))),
  );
}

/** PGlite: the same choices, as its `parsers` option. */
export const PGLITE_PARSERS: Record<number, (value: string) => unknown> = {
  [INT8]: toNumber,
  ...Object.fromEntries(TEXT_TIMES.map((oid) => [oid, (value: string) => value])),
};
