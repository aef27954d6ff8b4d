import { describe, expect, it } from 'vitest';
import { handTypedRows } from '../helpers/row-types.ts';

/**
 * Rows are typed from the entities, never by hand (docs/ARCHITECTURE.md, "The data layer"): a query
 * is a typed Kysely query (`sql.kysely`, api/db/kysely.ts), whose row Kysely infers, or raw SQL
 * whose row type is built from the entities. This test reads every file of api/ with TypeScript's
 * parser (syntax only, no type checker; test/helpers/row-types.ts) and judges the row type of
 * every raw query:
 * - the type argument of a `….query<T>(…)` call, and of a Kysely `sql<T>`/`fragment<T>` template
 *   that runs as a whole statement (`.execute(…)`); a template that is one column of a Kysely
 *   query types a value, not a row, and is left alone;
 * - a `….query(…)` without a type argument whose rows are read: its rows are the default
 *   `Record<string, unknown>`. Rows are not read when the call is a statement of its own, or when
 *   its rows (or its first row) are bound to a name used only for `.length` or as a truth test
 *   (`select 1 …` for existence, `returning 1` for a count). api/db/database.ts, api/db/prepared.ts,
 *   api/db/shared-reads.ts and api/db/kysely.ts, where `query` is the driver's, are not read.
 *
 * A row type is typed from the entities when it is, or resolves to (through type aliases and
 * interfaces, in its file or imported):
 * - `RowOf<…>` or `Counts<…>` (api/db/rows.ts), `Row<'table'>` (api/db/kysely.ts), MikroORM's
 *   `MigrationRow` (the migrator's own table);
 * - `Pick`, `Omit`, `Readonly`, `Required` or `NonNullable` of one of them;
 * - an object literal whose every field is typed by an entity's column, maybe `| null` or an
 *   array of it (`{ id: Row<'receipts'>['id'] | null }`: a column renamed, or read from a table
 *   chosen at run time);
 * - an intersection with at least one such part, whose other parts are such parts or object literals:
 *   the computed columns (`Counts<'n'> & { date: string }`); an interface extending one of them
 *   with its own fields is the same intersection;
 * - a union of such types.
 * Anything else is hand-typed and found: an object literal alone (`{ n: number }`), any
 * `Record<…>` (a row of figures is `Counts<'a' | 'b'>`, which names its columns), a name that
 * resolves to an interface or an object literal written field by field, a type parameter, a type
 * from a package (but MikroORM's `MigrationRow`).
 *
 * Every family is at 0: none may come back.
 */
describe('hand-typed query rows in api/', () => {
  it('are none: every row is typed from the entities', () => {
    expect(handTypedRows()).toEqual([]);
  });
});
