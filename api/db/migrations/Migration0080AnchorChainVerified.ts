import { Migration } from '@mikro-orm/migrations';

/**
 * /verify/anchor-chain from a stored verified point (issue 20): it read and verified every anchor
 * (one a sealed day) on each request. `anchor_chain_verified` holds the chain last verified whole
 * (through which day, its head, its length, the keys it verified with) and a generation; a request
 * verifies only the anchors sealed after that day, from its head. Sealed anchors are never
 * rewritten: any update, delete or truncate of `anchors`, or an anchor inserted on or before the
 * verified day, clears the point and moves the generation in the same statement, so the next
 * request verifies from genesis (and a verification begun before the change cannot store its
 * point: it stores only where the generation is still the one it read).
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0080AnchorChainVerified extends Migration {
  override name = 'Migration0080AnchorChainVerified';

  override up(): void {
    this.addSql(`create table anchor_chain_verified (
      id smallint primary key check (id = 1),
      generation bigint not null,
      keys text,
      through date,
      head text,
      length bigint
    )`);
    this.addSql('insert into anchor_chain_verified (id, generation) values (1, 0)');
    this.addSql(`create function anchor_chain_unverify() returns trigger language plpgsql as $$
      begin
        update anchor_chain_verified set generation = generation + 1, keys = null, through = null, head = null, length = null
         where id = 1;
        return null;
      end $$`);
    this.addSql(`create function anchor_chain_inserted() returns trigger language plpgsql as $$
      begin
        update anchor_chain_verified v set generation = generation + 1, keys = null, through = null, head = null, length = null
         where v.id = 1 and v.through is not null and exists (select 1 from new_rows n where n.date <= v.through);
        return null;
      end $$`);
    this.addSql(`create trigger anchors_chain_changed after update or delete on anchors
      for each statement execute function anchor_chain_unverify()`);
    this.addSql(`create trigger anchors_chain_truncated after truncate on anchors
      for each statement execute function anchor_chain_unverify()`);
    this.addSql(`create trigger anchors_chain_inserted after insert on anchors
      referencing new table as new_rows for each statement execute function anchor_chain_inserted()`);
  }
}
