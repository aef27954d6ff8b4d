import { Migration } from '@mikro-orm/migrations';

/**
 * Denials by reason without a scan (issue 20, point 7): /api/state, /api/transparency and the
 * operator console publish how many refusals each reason left (`denials`: one row per traced
 * refusal, a table that only grows) and grouped every row on each request. Tallies
 * `denials:<reason>` in record_tallies are moved by a statement-level trigger with transition
 * tables in the writer's own transaction (as 0044 keeps the held imprints by rule); an update that
 * moves no reason (the redaction of an actor) writes nothing, and a truncate drops the tallies with
 * the rows. SQL that PostgreSQL 15 and PGlite both run; one statement per addSql.
 */
export class Migration0084DenialTallies extends Migration {
  override name = 'Migration0084DenialTallies';

  override up(): void {
    this.addSql(`insert into record_tallies (name, value)
      select 'denials:' || reason, count(*) from denials group by 1 order by 1
      on conflict (name) do update set value = excluded.value`);
    const added = "select 'denials:' || reason as name, 1 as delta from new_rows";
    const removed = "select 'denials:' || reason as name, -1 as delta from old_rows";
    const apply = (rows: string) => `insert into record_tallies (name, value)
          select name, sum(delta) from (${rows}) x group by name having sum(delta) <> 0 order by name
          on conflict (name) do update set value = record_tallies.value + excluded.value;`;
    this.addSql(`create function record_tally_denials() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then ${apply(added)}
        elsif tg_op = 'UPDATE' then ${apply(`${added} union all ${removed}`)}
        elsif tg_op = 'DELETE' then ${apply(removed)}
        else delete from record_tallies where name like 'denials:%';
        end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'referencing new table as new_rows'],
      ['update', 'referencing old table as old_rows new table as new_rows'],
      ['delete', 'referencing old table as old_rows'],
      ['truncate', ''],
    ]) {
      this.addSql(
        `create trigger denials_tally_${event} after ${event} on denials ${referencing} for each statement execute function record_tally_denials()`,
      );
    }
  }
}
