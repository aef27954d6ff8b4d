import { Migration } from '@mikro-orm/migrations';

/**
 * Steward work: triage decisions (with the steward's private note) and lessons distilled from
 * non-quarantined imprints. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0007Steward extends Migration {
  override name = 'Migration0007Steward';

  override up(): void {
    // One row per triage decision. `note` is the steward's private note: read only by
    // /steward/whispers (steward:write), never by any public surface. `steward` is the public
    // form (`sovereign:<tag>`), as data-request processing records it: no raw id is kept here.
    this.addSql(`create table steward_actions (
      id text primary key,
      action text not null,
      sequence bigint not null references imprints(sequence),
      report_id text references imprint_reports(id),
      note text,
      steward text not null,
      outcome text not null,
      receipt_id text not null,
      at timestamptz not null
    )`);
    this.addSql(`create index steward_actions_sequence on steward_actions (sequence, action)`);
    this.addSql(`create index steward_actions_at on steward_actions (at desc, id desc)`);
    this.addSql(`alter table imprint_reports add column closed_at timestamptz`);
    this.addSql(`alter table imprint_reports add column closed_by_action text`);
    this.addSql(`create index imprint_reports_open on imprint_reports (created_at) where status = 'open'`);

    // Lessons: public text a steward writes, citing the imprints it was distilled from.
    this.addSql(`create table lessons (
      id text primary key,
      title text not null,
      body text not null,
      sources bigint[] not null,
      steward text not null,
      status text not null default 'active',
      created_at timestamptz not null,
      receipt_id text not null
    )`);
    this.addSql(`create index lessons_created on lessons (created_at desc, id desc)`);
  }
}
