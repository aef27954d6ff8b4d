/**
 * Tallies kept in record_tallies under one prefix (`data_requests:`, `treasury_income:`…), read
 * one row per kept figure, however many rows the figure counts.
 */
import type { Sql } from './database.ts';
import { constant } from './kysely.ts';

export interface Kept {
  /** the tally's name after the prefix */
  key: string;
  value: number;
}

/**
 * A kept key of two parts, `<first>:<rest>`, split at its first colon: the rest may hold colons
 * (an article id, a strategy name), the first never does (a status, a stance, a topic, a currency).
 */
export function splitKey(key: string): [first: string, rest: string] {
  const colon = key.indexOf(':');
  return [key.slice(0, colon), key.slice(colon + 1)];
}

/** The kept value of `key` among tallies read by talliesUnder (a tally at zero is not read: 0). */
export function keptValue(kept: readonly Kept[], key: string): number {
  return kept.find((k) => k.key === key)?.value ?? 0;
}

/** The nonzero tallies named `<prefix><key>`, by key. */
export async function talliesUnder(sql: Sql, prefix: string): Promise<Kept[]> {
  const rows = await sql.kysely
    .selectFrom('record_tallies')
    .select(['name', 'value'])
    .where('name', 'like', constant(`${prefix}%`))
    .where('value', '<>', constant(0))
    .orderBy('name')
    .execute();
  // `like` reads a prefix's `_` as any one character: keep only the names that start with it.
  return rows
    .filter((row) => row.name.startsWith(prefix))
    .map((row) => ({ key: row.name.slice(prefix.length), value: Number(row.value) }));
}
