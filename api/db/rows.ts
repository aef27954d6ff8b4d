import { p, type InferEntity, type Opt } from '@mikro-orm/core';

/**
 * An int8 column: a number from the entity manager and from a raw `sql.query` row alike, on both
 * drivers (api/db/wire-types.ts registers the parsers once).
 */
export const int8 = () => p.bigint('number').$type<number, number>();

/** camelCase property → snake_case column, as MikroORM's underscore naming strategy does it. */
type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;

/** A value as a raw query returns it: an int8 as a number, a timestamp or date as PostgreSQL's text (api/db/wire-types.ts). */
type Wire<T> = T extends { __raw?: infer Raw } ? (unknown extends Raw ? Plain<T> : Raw) : Plain<T>;
type Plain<T> = T extends Date ? string : Unbranded<T>;
/** Drops MikroORM's `Opt` brand (a column with a default), which a raw row does not carry. */
type Unbranded<T> = T extends Opt<infer Value> ? Value : T;

/**
 * A whole row of an entity's table as `sql.query` returns it (`select *`): snake_case columns,
 * driver types; a nullable column is `| null`, never missing. Use `Pick<RowOf<typeof X>, …>` for a query that selects fewer columns.
 */
export type RowOf<Entity> = {
  [K in keyof InferEntity<Entity> as K extends string ? Snake<K> : never]-?: Wire<
    Exclude<InferEntity<Entity>[K], undefined>
  >;
};

/**
 * The one row an invariant promises — an `insert … returning`, an aggregate without `group by`, a
 * seeded singleton row (the Record's counter): its absence is a bug in the service, an internal
 * error, never a caller's 404. A row that may be missing is read as `const [row] = …` (typed
 * `T | undefined`) and its absence answered as the route's contract says.
 */
export function one<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('internal: a query that always returns a row returned none');
  return row;
}

/**
 * A row of aggregate figures (`count(*) as n`, a tally's `coalesce(value, 0)`): no entity has these
 * columns, and an int8 comes back as a number on both drivers (api/db/wire-types.ts).
 */
export type Counts<K extends string> = Record<K, number>;
