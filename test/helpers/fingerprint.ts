/**
 * A fingerprint of everything the database holds: per table of the service's schema, its row count
 * and a hash of its rows in a stable order. Two equal fingerprints mean no door wrote anything in
 * between (the refusal sweeps compare one taken before with one taken after).
 */
import type { FastifyInstance } from 'fastify';
import { missing } from './elements.ts';

export type Fingerprint = Record<string, string>;

export async function databaseFingerprint(app: FastifyInstance): Promise<Fingerprint> {
  const db = app.civitas.db;
  const tables = await db.query<{ name: string }>(
    `select quote_ident(table_schema) || '.' || quote_ident(table_name) as name
       from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
      order by 1`,
  );
  const print: Fingerprint = {};
  for (const { name } of tables) {
    const [row = missing()] = await db.query<{ rows: string; hash: string | null }>(
      `select count(*)::text as rows, md5(string_agg(t::text, '|' order by t::text)) as hash from ${name} t`,
    );
    print[name] = `${row.rows}:${row.hash ?? '-'}`;
  }
  return print;
}
