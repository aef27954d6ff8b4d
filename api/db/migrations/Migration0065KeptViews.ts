import { Migration } from '@mikro-orm/migrations';

/**
 * Observatory views kept by a job: the swarm (a day of agent activity)
 * and the observatory (every instrument at once) are computed by the `organism.observatory` job,
 * which one process takes (it claims the view's row in `kept_view_claims` for the run, a single
 * statement: no transaction is held while it computes), and stored with when they were computed
 * (`as_of`) and what they cover; a request reads the stored row (api/db/kept-views.ts).
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0065KeptViews extends Migration {
  override name = 'Migration0065KeptViews';

  override up(): void {
    this.addSql(`create table kept_views (
      name text primary key,
      as_of timestamptz not null,
      coverage jsonb not null,
      body jsonb not null
    )`);
    this.addSql(`create table kept_view_claims (
      name text primary key,
      claimed_at timestamptz not null
    )`);
  }
}
