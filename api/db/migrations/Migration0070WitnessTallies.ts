import { Migration } from '@mikro-orm/migrations';

/**
 * The witness pages and /api/transparency without reading every mark of the log's life (issue 20):
 * - `witness_marks_date`: /verify/anchor/{date} reads a day's cosignatures, and the primary key
 *   (witness, date) cannot find a date without reading every mark;
 * - `witness_marks_marked_at`: /witness lists the latest 20 marks newest first;
 * - tallies `witness_marks:<name>` (one witness's marks) and `witness_marks` (the
 *   total), kept by statement-level triggers on insert and delete (the `anchors` tally is 0067's).
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0070WitnessTallies extends Migration {
  override name = 'Migration0070WitnessTallies';

  override up(): void {
    this.addSql('create index witness_marks_date on witness_marks (date)');
    this.addSql('create index witness_marks_marked_at on witness_marks (marked_at)');
    this.addSql(`insert into record_tallies (name, value)
      select 'witness_marks:' || witness, count(*) from witness_marks group by witness
      union all select 'witness_marks', count(*) from witness_marks
      on conflict (name) do update set value = excluded.value`);
    const tally = (rows: string, sign: string) => `insert into record_tallies (name, value)
          select name, sum(n) from (
            select 'witness_marks:' || witness as name, ${sign}1 as n from ${rows}
            union all select 'witness_marks', ${sign}1 from ${rows}) x
          group by name order by name
          on conflict (name) do update set value = record_tallies.value + excluded.value;`;
    this.addSql(`create function witness_marks_tally() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${tally('new_rows', '')}
        else
          ${tally('old_rows', '-')}
        end if;
        return null;
      end $$`);
    this.addSql(
      `create trigger witness_marks_tally_in after insert on witness_marks referencing new table as new_rows for each statement execute function witness_marks_tally()`,
    );
    this.addSql(
      `create trigger witness_marks_tally_out after delete on witness_marks referencing old table as old_rows for each statement execute function witness_marks_tally()`,
    );
    // The `anchors` tally and its triggers come from 0067, which the ledger's totals read too.
  }
}
