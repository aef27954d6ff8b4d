/**
 * The typed query layer: a Kysely whose tables and columns are MikroORM's reading of the entities
 * (`InferKyselyDB`, the type behind `em.getKysely()`), with the values the drivers really return
 * (api/db/wire-types.ts: a timestamp or date is PostgreSQL's text, an int8 a number), and whose
 * statements run through the `Sql` they were built from: the same connection, the same
 * transaction, the same named prepared statements on PostgreSQL as a raw `sql.query`.
 */
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type ColumnType,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type RawBuilder,
  type Selectable,
  sql,
} from 'kysely';
import type { Tables } from './entities.ts';

/**
 * A value as read: a Date (a timestamp the entity manager would parse) is the driver's text; a
 * custom type (`int8()`, api/db/rows.ts) is its raw value, as the driver's parser returns it.
 */
type Read<T> = T extends Date
  ? string
  : T extends { __raw?: infer Raw }
    ? unknown extends Raw
      ? T
      : Raw
    : T;
/** A value as written: a timestamp takes PostgreSQL's text or a Date. */
type Written<T> = T extends Date ? string | Date : Read<T>;

/** One column: Kysely's select/insert/update types, with the driver's values. */
type WireColumn<C> = [C] extends [ColumnType<infer S, infer I, infer U>]
  ? ColumnType<Read<S>, Written<I>, Written<U>>
  : ColumnType<Read<C>, Written<C>, Written<C>>;

/**
 * The database as Kysely sees it: one table per entity by its table name, snake_case columns (the
 * entities' default naming, which is also MikroORM's default for `getKysely`: no
 * `columnNamingStrategy: 'property'`, so no renaming plugin sits between Kysely and the SQL).
 */
export type DB = {
  [Table in keyof Tables]: {
    [Column in keyof Tables[Table]]: WireColumn<Tables[Table][Column]>;
  };
};

type Query = (text: string, params?: unknown[]) => Promise<unknown[]>;

/**
 * A Kysely over one `query` function: every statement is compiled by Kysely's PostgreSQL compiler
 * and handed to `query` as text and parameters. It has no transactions of its own: a Kysely built
 * from a transaction's `Sql` runs inside that transaction (Database.transaction, sqlTransaction).
 */
export function kyselyOver(query: Query): Kysely<DB> {
  const connection: DatabaseConnection = {
    async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
      return { rows: (await query(compiled.sql, [...compiled.parameters])) as R[] };
    },
    // eslint-disable-next-line require-yield
    async *streamQuery() {
      throw new Error('kysely: streaming is not supported; page with a key');
    },
  };
  const noTransactions = async () => {
    throw new Error('kysely: transactions are the Database’s (transaction, sqlTransaction)');
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: noTransactions,
    commitTransaction: noTransactions,
    rollbackTransaction: noTransactions,
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

/**
 * A row of a table as a raw `sql.query` returns it (`select *`): for raw SQL kept for a hot path or
 * an invariant, `Pick<Row<'table'>, …>` types its row from the entity by table name.
 */
export type Row<Table extends keyof DB> = Selectable<DB[Table]>;

/**
 * A constant of a query — a limit, a flag or kind it filters on, a tally's name — written into the
 * statement as a literal, never as a parameter: every statement is a named prepared statement
 * (api/db/database.ts), and after five runs PostgreSQL may plan it once for any value (a generic
 * plan), which guesses 10% of the rows for `limit $1` and cannot use a partial index for `held = $1`
 * (docs/ARCHITECTURE.md, "The data layer"). Kysely's `sql.lit`, keeping the value's own type, so
 * it compares with a column typed by a value list. A value that varies stays a parameter.
 */
export function constant<const V extends string | number | boolean>(value: V): RawBuilder<V> {
  return sql.lit(value);
}

/**
 * An `Sql` (api/db/sql.ts) over one query function, its Kysely built on first use; `send` runs the
 * statement and waits for it unless the caller pipelines (api/db/prepared.ts).
 */
export function sqlOver<Q extends Query>(
  query: Q,
  send: (text: string, params?: unknown[]) => Promise<void> = async (text, params) => {
    await query(text, params);
  },
): { query: Q; send: typeof send; readonly kysely: Kysely<DB> } {
  let kysely: Kysely<DB> | undefined;
  return {
    query,
    send,
    get kysely() {
      return (kysely ??= kyselyOver(query));
    },
  };
}
