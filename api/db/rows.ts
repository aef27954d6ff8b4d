import { p, type InferEntity, type Opt } from '@mikro-orm/core';

/**
 * An int8 column. The entity manager hands it out as a number; a raw `sql.query` row carries it
 * as each driver sends it: a string from pg, a number from PGlite (MikroORM's `IType` records both).
 */
export const int8 = () => p.bigint('number').$type<number, number | string>();

/** camelCase property → snake_case column, as MikroORM's underscore naming strategy does it. */
type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;

/** A value as a raw query returns it: an int8 as its raw form, a timestamp or date as a string (pg) or Date (PGlite). */
type Wire<T> = T extends { __raw?: infer Raw } ? (unknown extends Raw ? Plain<T> : Raw) : Plain<T>;
type Plain<T> = T extends Date ? Date | string : Unbranded<T>;
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
