import { Migration } from '@mikro-orm/migrations';

/**
 * The Record's tallies: counts the hot reads (/api/stats, the Record view, the home page) used to
 * take with count(*) over whole tables, kept exact by the database itself. Statement-level
 * triggers with transition tables add each statement's difference to the tally it changes, in
 * the statement's own transaction, whatever code path wrote the rows (the sequencer, erasure,
 * triage, a merge): a count that cannot drift from its table, read as one row. A statement that
 * changes no count (an agent's last-seen update) takes no lock on a tally; a statement that writes
 * imprints also moves `imprints_revision`, the Record's version.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0022RecordTallies extends Migration {
  override name = 'Migration0022RecordTallies';

  override up(): void {
    this.addSql(`create table record_tallies (
      name text primary key,
      value bigint not null
    )`);
    this.addSql(`insert into record_tallies (name, value)
      select 'sovereigns', count(*) from sovereigns
      union all select 'agents', count(*) from agents
      union all select 'imprints_unattested', count(*) from imprints where unattested and not held
      union all select 'imprints_held', count(*) from imprints where held
      union all select 'imprints_revision', 0`);

    // Rows in, rows out: sovereigns and agents (inserted and deleted, never re-counted on update).
    this.addSql(`create function record_tally_rows() returns trigger language plpgsql as $$
      declare delta bigint;
      begin
        if tg_op = 'INSERT' then select count(*) into delta from new_rows; else select -count(*) into delta from old_rows; end if;
        if delta <> 0 then update record_tallies set value = value + delta where name = tg_argv[0]; end if;
        return null;
      end $$`);
    // Imprints: the quarantined (unattested, not held) and the held, on insert, update and delete;
    // and the Record's revision, moved by every statement that writes imprint rows at all (kept
    // renders of pages that read only the Record are checked against it: api/site/mount.ts).
    this.addSql(`create function record_tally_imprints() returns trigger language plpgsql as $$
      declare quarantined bigint := 0; kept_held bigint := 0; touched bigint := 0; q bigint; h bigint;
      begin
        if tg_op in ('INSERT', 'UPDATE') then
          select count(*) filter (where n.unattested and not n.held), count(*) filter (where n.held), count(*) into quarantined, kept_held, touched from new_rows n;
        end if;
        if tg_op in ('DELETE', 'UPDATE') then
          select count(*) filter (where o.unattested and not o.held), count(*) filter (where o.held), count(*) into q, h, touched from old_rows o;
          quarantined := quarantined - q;
          kept_held := kept_held - h;
        end if;
        if touched > 0 then update record_tallies set value = value + 1 where name = 'imprints_revision'; end if;
        if quarantined <> 0 then update record_tallies set value = value + quarantined where name = 'imprints_unattested'; end if;
        if kept_held <> 0 then update record_tallies set value = value + kept_held where name = 'imprints_held'; end if;
        return null;
      end $$`);
    // A trigger with transition tables takes one event, so each table has one trigger per event.
    for (const [table, fn, arg] of [
      ['sovereigns', 'record_tally_rows', "'sovereigns'"],
      ['agents', 'record_tally_rows', "'agents'"],
    ]) {
      this.addSql(
        `create trigger ${table}_tally_in after insert on ${table} referencing new table as new_rows for each statement execute function ${fn}(${arg})`,
      );
      this.addSql(
        `create trigger ${table}_tally_out after delete on ${table} referencing old table as old_rows for each statement execute function ${fn}(${arg})`,
      );
    }
    this.addSql(
      `create trigger imprints_tally_in after insert on imprints referencing new table as new_rows for each statement execute function record_tally_imprints()`,
    );
    this.addSql(
      `create trigger imprints_tally_change after update on imprints referencing old table as old_rows new table as new_rows for each statement execute function record_tally_imprints()`,
    );
    this.addSql(
      `create trigger imprints_tally_out after delete on imprints referencing old table as old_rows for each statement execute function record_tally_imprints()`,
    );
  }
}
