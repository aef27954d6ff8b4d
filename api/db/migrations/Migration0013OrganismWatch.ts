import { Migration } from '@mikro-orm/migrations';

/**
 * The organism watching itself over time: truth-check results (the history /api/trust reads),
 * the watched state of each self-trial with the alerts raised and cleared when one changes
 * (/api/vigilance), and dreams (terms and counts only, never a body: /api/dreaming).
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0013OrganismWatch extends Migration {
  override name = 'Migration0013OrganismWatch';

  override up(): void {
    // One row per truth claim checked (by request, at most once a minute per claim, or by the watch job).
    this.addSql(`create table truth_checks (
      id bigserial primary key,
      claim text not null,
      held boolean not null,
      evidence text not null,
      checked_at timestamptz not null
    )`);
    this.addSql(`create index truth_checks_claim_at on truth_checks (claim, checked_at)`);
    // The last known state of each watched self-trial.
    this.addSql(`create table vigilance_watches (
      trial text primary key,
      passed boolean not null,
      since timestamptz not null,
      checked_at timestamptz not null
    )`);
    // An alert opens when a watched trial starts failing and clears when it passes again.
    this.addSql(`create table vigilance_alerts (
      id bigserial primary key,
      trial text not null,
      raised_at timestamptz not null,
      cleared_at timestamptz,
      detail text not null,
      receipt_id text not null
    )`);
    this.addSql(
      `create unique index vigilance_alerts_open on vigilance_alerts (trial) where cleared_at is null`,
    );
    // One dream per UTC day: the most distinctive terms of the preceding 24 hours' retained bodies.
    this.addSql(`create table dreams (
      date date primary key,
      window_start timestamptz not null,
      window_end timestamptz not null,
      bodies integer not null,
      terms jsonb not null,
      made_at timestamptz not null,
      receipt_id text not null
    )`);
  }
}
