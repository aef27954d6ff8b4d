/**
 * The Record by hour (migration 0062): `imprint_hours` keeps, per UTC hour, the first sequence
 * written in it, so a reader of a recent window reads a primary-key range of imprints instead of
 * scanning the table (a BRIN index on created_at stops finding recent windows once the window's
 * trims have moved old rows into new pages). Sequences follow time (the sequencer numbers imprints
 * as it writes them), so the first sequence of the hours from an instant on bounds its imprints.
 */
import type { Sql } from '../db/database.ts';

const HOUR = 3_600_000;

export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR) * HOUR);

/**
 * The lowest sequence an imprint created at or after `at` can have: the first sequence of the
 * hours from `at`'s hour on (null when nothing was written since). A key lookup and the hours since.
 */
export async function sequenceSince(sql: Sql, at: Date): Promise<number | null> {
  const [row] = await sql.kysely
    .selectFrom('imprint_hours')
    .select((eb) => eb.fn.min('first_sequence').as('first'))
    .where('hour', '>=', hourOf(at).toISOString())
    .execute();
  return row?.first === null || row?.first === undefined ? null : row.first;
}

/** SQL for the same bound inside a query, `$n` naming the instant: `sequence >= (…)`. */
export const SEQUENCE_SINCE = (param: string) =>
  `coalesce((select min(first_sequence) from imprint_hours where hour >= date_trunc('hour', ${param}::timestamptz at time zone 'UTC') at time zone 'UTC'), 9223372036854775807)`;
