import { Migration } from '@mikro-orm/migrations';

/**
 * The census's address pressure from kept tallies (issue 20): it grouped every live sovereign by
 * tag on each request (347 pages at 20,000 sovereigns). Kept exact in the writing statement's own
 * transaction:
 * - `address_holders` — per lower-cased public tag, the live (not erased) sovereigns holding it; a
 *   row whose count falls to 0 is deleted, so an erased sovereign's tag stays only if others hold it;
 * - `record_tallies` rows `address_inhabitants`, `address_distinct`, `address_colliding` (addresses
 *   held by more than one) and `address_unaddressable` (sovereigns on those): what the census reads.
 * Each address's count is moved by an upsert that returns the count under its row lock, so the
 * summary's changes (before -> after, per address) stay exact under concurrent writers. Inserts
 * and deletes move them per statement; a change of tag or of erased_at per row (erasure: rare).
 * On a database holding data, both are backfilled from the sovereigns as they stand.
 * SQL that PostgreSQL 15 and PGlite both run; one statement per addSql.
 */

/** Applies `moves` (a query of address, delta) to address_holders and the summary tallies. */
const apply = (moves: string) => `
  with d as (select address, sum(delta)::bigint as delta from (${moves}) m group by address having sum(delta) <> 0),
  u as (insert into address_holders (address, holders) select address, delta from d order by 1
        on conflict (address) do update set holders = address_holders.holders + excluded.holders returning address, holders),
  c as (select u.holders as after, u.holders - d.delta as before from u join d using (address)),
  s as (select coalesce(sum(after - before), 0) as inhabitants,
               count(*) filter (where after > 0) - count(*) filter (where before > 0) as distinct_addresses,
               count(*) filter (where after > 1) - count(*) filter (where before > 1) as colliding,
               coalesce(sum(after) filter (where after > 1), 0) - coalesce(sum(before) filter (where before > 1), 0) as unaddressable
          from c)
  update record_tallies t set value = t.value + v.delta
    from s, lateral (values ('address_colliding', s.colliding), ('address_distinct', s.distinct_addresses),
                            ('address_inhabitants', s.inhabitants), ('address_unaddressable', s.unaddressable)) as v(name, delta)
   where t.name = v.name and v.delta <> 0;
  delete from address_holders h where h.holders = 0 and h.address in (select address from (${moves}) m);`;

export class Migration0081AddressPressure extends Migration {
  override name = 'Migration0081AddressPressure';

  override up(): void {
    this.addSql(`create table address_holders (
      address text primary key,
      holders bigint not null
    )`);
    this.addSql(`insert into address_holders (address, holders)
      select lower(tag), count(*) from sovereigns where erased_at is null group by lower(tag) order by 1`);
    this.addSql(`insert into record_tallies (name, value)
      select 'address_inhabitants', coalesce(sum(holders), 0) from address_holders
      union all select 'address_distinct', count(*) from address_holders
      union all select 'address_colliding', count(*) from address_holders where holders > 1
      union all select 'address_unaddressable', coalesce(sum(holders), 0) from address_holders where holders > 1`);
    this.addSql(`create function address_pressure_in() returns trigger language plpgsql as $$
      begin
        ${apply('select lower(tag) as address, 1 as delta from address_new_rows where erased_at is null')}
        return null;
      end $$`);
    this.addSql(`create function address_pressure_out() returns trigger language plpgsql as $$
      begin
        ${apply('select lower(tag) as address, -1 as delta from address_old_rows where erased_at is null')}
        return null;
      end $$`);
    this.addSql(`create function address_pressure_moved() returns trigger language plpgsql as $$
      begin
        ${apply(`select lower(old.tag) as address, -1 as delta where old.erased_at is null
                 union all select lower(new.tag), 1 where new.erased_at is null`)}
        return null;
      end $$`);
    this.addSql(`create trigger sovereigns_address_in after insert on sovereigns
      referencing new table as address_new_rows for each statement execute function address_pressure_in()`);
    this.addSql(`create trigger sovereigns_address_out after delete on sovereigns
      referencing old table as address_old_rows for each statement execute function address_pressure_out()`);
    this
      .addSql(`create trigger sovereigns_address_moved after update of tag, erased_at on sovereigns for each row
      when (old.tag is distinct from new.tag or (old.erased_at is null) <> (new.erased_at is null))
      execute function address_pressure_moved()`);
  }
}
