import { Migration } from '@mikro-orm/migrations';

/**
 * Runs of the service's experiments and expeditions (/experiments, /expeditions/recovery-paradox):
 * each run keeps the figures measured at that moment and, for an experiment, the variation a
 * sovereign proposed (text only; the proposer is never stored beyond the receipt). SQL that
 * PostgreSQL 15 and PGlite both run.
 */
export class Migration0017OrganismRuns extends Migration {
  override name = 'Migration0017OrganismRuns';

  override up(): void {
    this.addSql(`create table organism_runs (
      id text primary key,
      study text not null,
      ran_at timestamptz not null,
      variation text,
      findings jsonb not null,
      receipt_id text not null
    )`);
    this.addSql(`create index organism_runs_study_at on organism_runs (study, ran_at desc)`);
  }
}
