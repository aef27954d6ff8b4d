import { Migration } from '@mikro-orm/migrations';

/**
 * Held imprints by rule without a scan (issue 20, point 7): the feeds, the Record view and
 * /api/state publish how many imprints each spam-gate rule holds, and counted them over every
 * held imprint of the history on each request. Tallies `imprints_held:<rule>` in record_tallies
 * (beside 0022's `imprints_held`) are moved by a statement-level trigger with transition tables
 * in the writer's own transaction; a statement that holds or releases nothing touches none.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0044HeldByRule extends Migration {
  override name = 'Migration0044HeldByRule';

  override up(): void {
    this.addSql(`insert into record_tallies (name, value)
      select 'imprints_held:' || coalesce(held_reason, 'other'), count(*) from imprints where held group by 1`);
    const added =
      "select 'imprints_held:' || coalesce(held_reason, 'other') as name, 1 as delta from new_rows where held";
    const removed =
      "select 'imprints_held:' || coalesce(held_reason, 'other') as name, -1 as delta from old_rows where held";
    const apply = (rows: string) => `insert into record_tallies (name, value)
          select name, sum(delta) from (${rows}) x group by name having sum(delta) <> 0 order by name
          on conflict (name) do update set value = record_tallies.value + excluded.value;`;
    this.addSql(`create function record_tally_held_rules() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then ${apply(added)}
        elsif tg_op = 'UPDATE' then ${apply(`${added} union all ${removed}`)}
        else ${apply(removed)}
        end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ]) {
      this.addSql(
        `create trigger imprints_held_rules_${event} after ${event} on imprints referencing ${referencing} for each statement execute function record_tally_held_rules()`,
      );
    }
  }
}
