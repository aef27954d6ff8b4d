import { Migration } from '@mikro-orm/migrations';

/**
 * Equity without a scan (issue 20): /api/equity and the wallet block of /api/vitals read every
 * patron holding units (209 ms at 200,000 patrons, docs/scale.md) to count holders, sum units and
 * compute a Gini coefficient, which needs every holding. `treasury_units` keeps how many patrons
 * hold each number of units, moved by statement triggers with transition tables on
 * treasury_patrons in the writer's own transaction; the Gini, the count and the total come from it
 * in as many rows as there are distinct holdings. A number of units nobody holds any more keeps
 * its row at 0 (readers skip it): a statement cannot delete a row it has just updated. The top
 * holder (never published: the equity projector closes it) is read through an index on units.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0090TreasuryUnits extends Migration {
  override name = 'Migration0090TreasuryUnits';

  override up(): void {
    this.addSql('create table treasury_units (units bigint primary key, holders bigint not null)');
    this.addSql(
      'insert into treasury_units (units, holders) select units, count(*) from treasury_patrons where units > 0 group by units',
    );
    this.addSql('create index treasury_patrons_units on treasury_patrons (units desc)');
    const move = (rows: string) => `insert into treasury_units (units, holders)
          select units, sum(delta) from (${rows}) x group by units having sum(delta) <> 0 order by units
          on conflict (units) do update set holders = treasury_units.holders + excluded.holders;`;
    const added = 'select units, 1 as delta from new_rows where units > 0';
    const removed = 'select units, -1 as delta from old_rows where units > 0';
    this.addSql(`create function kept_treasury_units() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then ${move(added)}
        elsif tg_op = 'UPDATE' then ${move(`${added} union all ${removed}`)}
        else ${move(removed)}
        end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ]) {
      this.addSql(
        `create trigger treasury_patrons_units_${event} after ${event} on treasury_patrons referencing ${referencing} for each statement execute function kept_treasury_units()`,
      );
    }
    // A truncate empties the patrons, so the distribution with them.
    this.addSql(`create function kept_treasury_units_truncated() returns trigger language plpgsql as $$
      begin
        delete from treasury_units;
        return null;
      end $$`);
    this.addSql(
      'create trigger treasury_patrons_units_truncate after truncate on treasury_patrons for each statement execute function kept_treasury_units_truncated()',
    );
  }
}
