import { Migration } from '@mikro-orm/migrations';

/**
 * One definition of who is counted, for /api/stats and /api/citizens alike (issue 19: 8 agents
 * on one, 7 on the other):
 * - humans: unchanged (an erasure keeps the count: the anonymous member takes the erased row's
 *   place, DESIGN.md), and /api/citizens now reads the same tally;
 * - an agent is a handle with a public imprint (a handle whose every imprint the spam gate holds
 *   is a held name, held_spam): `agents.public`, set by the imprints' tally trigger when the
 *   handle's first imprint is not held (at insert, or when a steward releases one). An imprint is
 *   never held again, so `public` never goes back; the tally counts public agents.
 * The `agents` rows triggers no longer count rows in; the imprints trigger counts what became public.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0032CitizenTallies extends Migration {
  override name = 'Migration0032CitizenTallies';

  override up(): void {
    this.addSql(`alter table agents add column public boolean not null default false`);
    this.addSql(`update agents set public = true where exists (
      select 1 from imprints i where i.author_kind = 'agent' and i.author_ref = agents.handle and not i.held)`);

    this.addSql(`drop trigger agents_tally_in on agents`);
    this.addSql(`drop trigger agents_tally_out on agents`);
    this.addSql(`create function record_tally_agents_out() returns trigger language plpgsql as $$
      declare delta bigint;
      begin
        select count(*) into delta from old_rows where public;
        if delta <> 0 then update record_tallies set value = value - delta where name = 'agents'; end if;
        return null;
      end $$`);
    this.addSql(
      `create trigger agents_tally_out after delete on agents referencing old table as old_rows for each statement execute function record_tally_agents_out()`,
    );

    // The imprints' trigger of migration 0022, plus: handles whose first public imprint this
    // statement wrote become public (an update that matches no row takes no lock).
    this.addSql(`create or replace function record_tally_imprints() returns trigger language plpgsql as $$
      declare quarantined bigint := 0; kept_held bigint := 0; touched bigint := 0; q bigint; h bigint; became bigint := 0;
      begin
        if tg_op in ('INSERT', 'UPDATE') then
          select count(*) filter (where n.unattested and not n.held), count(*) filter (where n.held), count(*) into quarantined, kept_held, touched from new_rows n;
          with shown as (
            update agents set public = true
             where not public and handle in (select n.author_ref from new_rows n where n.author_kind = 'agent' and not n.held)
            returning 1)
          select count(*) into became from shown;
        end if;
        if tg_op in ('DELETE', 'UPDATE') then
          select count(*) filter (where o.unattested and not o.held), count(*) filter (where o.held), count(*) into q, h, touched from old_rows o;
          quarantined := quarantined - q;
          kept_held := kept_held - h;
        end if;
        if touched > 0 then update record_tallies set value = value + 1 where name = 'imprints_revision'; end if;
        if quarantined <> 0 then update record_tallies set value = value + quarantined where name = 'imprints_unattested'; end if;
        if kept_held <> 0 then update record_tallies set value = value + kept_held where name = 'imprints_held'; end if;
        if became <> 0 then update record_tallies set value = value + became where name = 'agents'; end if;
        return null;
      end $$`);

    this.addSql(
      `update record_tallies set value = (select count(*) from agents where public) where name = 'agents'`,
    );
  }
}
