import { Migration } from '@mikro-orm/migrations';

/**
 * The discrimination figures as a job result (api/organism/checks/discrimination.ts): one row,
 * rewritten by the `organism.discrimination` job, so GET /api/discrimination reads one row instead
 * of every imprint. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0030DiscriminationResults extends Migration {
  override name = 'Migration0030DiscriminationResults';

  override up(): void {
    this.addSql(`create table discrimination_results (
      id integer primary key check (id = 1),
      as_of timestamptz not null,
      figures jsonb not null
    )`);
  }
}
