import { Migration } from '@mikro-orm/migrations';

/**
 * The counts /api/orders, /lineage and /provenance show, without a scan (issue 20, point 7): each
 * counted every order, proposal, cosign or ratification of the Record's life on every request.
 * Now tallies in record_tallies, kept by statement-level triggers in the writers' transactions:
 * - `orders_status:<status>`: orders by status (their sum is the total). An update that moves no
 *   status (a second) nets to nothing and touches no tally row;
 * - `governance_proposals`, `governance_cosigns`, `governance_ratifications`: rows in, rows out
 *   (record_tally_rows, migration 0022).
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0069ActTallies extends Migration {
  override name = 'Migration0069ActTallies';

  override up(): void {
    this.addSql(`insert into record_tallies (name, value)
      select 'orders_status:' || status, count(*) from orders group by status
      union all select 'governance_proposals', count(*) from governance_proposals
      union all select 'governance_cosigns', count(*) from governance_cosigns
      union all select 'governance_ratifications', count(*) from governance_ratifications
      on conflict (name) do update set value = excluded.value`);

    const added = "select 'orders_status:' || status as name, 1 as delta from new_rows";
    const removed = "select 'orders_status:' || status as name, -1 as delta from old_rows";
    const tally = (rows: string) => `insert into record_tallies (name, value)
          select name, sum(delta) from (${rows}) x group by name having sum(delta) <> 0 order by name
          on conflict (name) do update set value = record_tallies.value + excluded.value;`;
    this.addSql(`create function orders_status_tally() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${tally(added)}
        elsif tg_op = 'UPDATE' then
          ${tally(`${added} union all ${removed}`)}
        else
          ${tally(removed)}
        end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ]) {
      this.addSql(
        `create trigger orders_status_tally_${event} after ${event} on orders referencing ${referencing} for each statement execute function orders_status_tally()`,
      );
    }
    for (const table of ['governance_proposals', 'governance_cosigns', 'governance_ratifications']) {
      this.addSql(
        `create trigger ${table}_tally_in after insert on ${table} referencing new table as new_rows for each statement execute function record_tally_rows('${table}')`,
      );
      this.addSql(
        `create trigger ${table}_tally_out after delete on ${table} referencing old table as old_rows for each statement execute function record_tally_rows('${table}')`,
      );
    }
  }
}
