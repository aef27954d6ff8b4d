import { Migration } from '@mikro-orm/migrations';

/**
 * The organism's mind: stances sovereigns take on the service's mind claims (one current stance
 * per sovereign per claim; the sovereign id never leaves, stances are published as k-anonymous
 * counts) and the dispatch summary of periodic job runs (per job: last start/end/outcome, how many
 * tries and failures; no error words are stored). SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0016OrganismMind extends Migration {
  override name = 'Migration0016OrganismMind';

  override up(): void {
    this.addSql(`create table mind_stances (
      claim text not null,
      sovereign_id uuid not null references sovereigns(id) on delete cascade,
      stance text not null check (stance in ('agree', 'disagree', 'unsure')),
      reason text not null,
      taken_at timestamptz not null,
      receipt_id text not null,
      primary key (claim, sovereign_id)
    )`);
    this.addSql(`create index mind_stances_taken on mind_stances (taken_at desc)`);
    this.addSql(`create table job_runs (
      job text primary key,
      last_started_at timestamptz not null,
      last_finished_at timestamptz not null,
      last_outcome text not null check (last_outcome in ('ok', 'failed')),
      last_failed_at timestamptz,
      tries bigint not null default 0,
      failures bigint not null default 0
    )`);
  }
}
