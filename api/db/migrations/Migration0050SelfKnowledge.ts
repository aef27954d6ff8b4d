import { Migration } from '@mikro-orm/migrations';

/**
 * Self-knowledge kept, not recomputed (docs/organism.md "Self-knowledge kept"): the one kept
 * answer of the self-trials and truth claims, the cursors of the incremental walks that verify
 * the Record and the log from their last verified point, the problems those walks found (each
 * keyed by where it lies, so re-verifying a stretch clears what healed there), and the truth
 * checks' tallies that /api/trust and /api/mind read instead of counting the whole history.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0050SelfKnowledge extends Migration {
  override name = 'Migration0050SelfKnowledge';

  override up(): void {
    // One row (id 1): what the latest verification run found. `run` is that run's number, so an
    // older run finishing late never replaces a newer one's answer.
    this.addSql(`create table self_knowledge (
      id smallint primary key,
      run bigint not null,
      trials jsonb,
      truth jsonb,
      coverage jsonb,
      watch jsonb,
      as_of timestamptz
    )`);
    this.addSql(`insert into self_knowledge (id, run) values (1, 0)`);
    // One cursor per walk (imprints, ledger, censuses) and mode (frontier: what is new; sweep:
    // the already verified stretch again, lap after lap; full: the operator's run from genesis).
    this.addSql(`create table self_knowledge_walks (
      walk text not null,
      mode text not null,
      cursor jsonb not null,
      checked bigint not null,
      lap_started_at timestamptz,
      lap_completed_at timestamptz,
      updated_at timestamptz not null,
      primary key (walk, mode)
    )`);
    // A problem a walk found, keyed by where it lies (a sortable position: imprint number, log
    // day and leaf, census date); re-verifying a stretch deletes the problems inside it first.
    this.addSql(`create table self_knowledge_problems (
      trial text not null,
      at_key text not null,
      detail text not null,
      found_at timestamptz not null,
      primary key (trial, at_key)
    )`);
    // The truth checks' history in tallies: per claim and per UTC day, kept by the statement that
    // appends a round (api/organism/mind/truth.ts), read as a handful of rows.
    this.addSql(`create table truth_tallies (
      claim text primary key,
      checks bigint not null,
      held bigint not null,
      first_checked_at timestamptz not null,
      last_checked_at timestamptz not null,
      last_not_held_at timestamptz,
      last_held boolean not null,
      last_evidence text not null
    )`);
    this.addSql(`create table truth_days (
      date date primary key,
      checks bigint not null,
      held bigint not null
    )`);
    this.addSql(`insert into truth_tallies
      select claim, count(*), count(*) filter (where held), min(checked_at), max(checked_at),
             max(checked_at) filter (where not held),
             (array_agg(held order by checked_at desc, id desc))[1],
             (array_agg(evidence order by checked_at desc, id desc))[1]
        from truth_checks group by claim`);
    this.addSql(`insert into truth_days
      select (checked_at at time zone 'UTC')::date, count(*), count(*) filter (where held)
        from truth_checks group by 1`);
  }
}
