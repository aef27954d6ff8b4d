import { Migration } from '@mikro-orm/migrations';

/**
 * The flash of a failed browser form (api/http.ts): the error and the typed values, read once by
 * the page the form lives on and deleted; rows older than ten minutes are swept on the next write.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0021FormFlashes extends Migration {
  override name = 'Migration0021FormFlashes';

  override up(): void {
    this.addSql(`create table form_flashes (
      id text primary key,
      payload jsonb not null,
      expires_at timestamptz not null
    )`);
  }
}
