import { Migration } from '@mikro-orm/migrations';

/**
 * The roster's counts without scans (issue 20, point 7). /api/citizens and the chronicle showed
 * "N sovereigns, M agents" by counting sovereigns not erased and agents with at least one imprint
 * the gate did not hold (a probe of imprints per agent): reads that grew with the population.
 * Now:
 * - `agents.public_imprints`: the agent's imprints not held, kept by the imprints' tally trigger
 *   (whatever wrote them: the sequencer, triage, erasure), so "is this handle public" is a column;
 * - tallies `sovereigns_listed` (not erased) and `agents_public` (public_imprints > 0), moved by
 *   statement-level triggers with transition tables in the writer's own transaction, as 0022's;
 * - the roster's key orders as indexes, so a page by key reads the page, never an offset.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0040RosterTallies extends Migration {
  override name = 'Migration0040RosterTallies';

  override up(): void {
    this.addSql('alter table agents add column public_imprints integer not null default 0');
    this.addSql(`update agents a set public_imprints = c.n from (
      select author_ref, count(*) as n from imprints where author_kind = 'agent' and not held group by author_ref) c
      where a.handle = c.author_ref`);
    this.addSql(`insert into record_tallies (name, value)
      select 'sovereigns_listed', count(*) from sovereigns where erased_at is null
      union all select 'agents_public', count(*) from agents where public_imprints > 0`);
    this.addSql('create index sovereigns_roster on sovereigns (tag, id) where erased_at is null');

    // Agents' public imprints: each statement's difference per handle, then the handles that
    // became public or stopped being public move the tally. An agent deleted first (erasure) has
    // already left the tally with its row; its imprints deleted later find no row to update.
    const added =
      "select n.author_ref as handle, 1 as delta from new_rows n where n.author_kind = 'agent' and not n.held";
    const removed =
      "select o.author_ref as handle, -1 as delta from old_rows o where o.author_kind = 'agent' and not o.held";
    const apply = (
      rows: string,
    ) => `with d as (select handle, sum(delta) as delta from (${rows}) x group by handle having sum(delta) <> 0),
             u as (update agents a set public_imprints = a.public_imprints + d.delta from d where a.handle = d.handle
                   returning a.public_imprints > 0 as now_public, a.public_imprints - d.delta > 0 as was_public)
        select count(*) filter (where now_public and not was_public) - count(*) filter (where was_public and not now_public)
          into moved from u;`;
    this.addSql(`create function roster_tally_imprints() returns trigger language plpgsql as $$
      declare moved bigint := 0;
      begin
        if tg_op = 'INSERT' then ${apply(added)}
        elsif tg_op = 'UPDATE' then ${apply(`${added} union all ${removed}`)}
        else ${apply(removed)}
        end if;
        if moved <> 0 then update record_tallies set value = value + moved where name = 'agents_public'; end if;
        return null;
      end $$`);
    this.addSql(`create function roster_tally_agents_out() returns trigger language plpgsql as $$
      declare gone bigint;
      begin
        select count(*) into gone from old_rows where public_imprints > 0;
        if gone <> 0 then update record_tallies set value = value - gone where name = 'agents_public'; end if;
        return null;
      end $$`);
    // Sovereigns listed: crossed and not erased; erasure is an update of erased_at (or a delete).
    this.addSql(`create function roster_tally_sovereigns() returns trigger language plpgsql as $$
      declare delta bigint := 0; gone bigint;
      begin
        if tg_op in ('INSERT', 'UPDATE') then select count(*) into delta from new_rows where erased_at is null; end if;
        if tg_op in ('DELETE', 'UPDATE') then
          select count(*) into gone from old_rows where erased_at is null;
          delta := delta - gone;
        end if;
        if delta <> 0 then update record_tallies set value = value + delta where name = 'sovereigns_listed'; end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ]) {
      this.addSql(
        `create trigger imprints_roster_${event} after ${event} on imprints referencing ${referencing} for each statement execute function roster_tally_imprints()`,
      );
      this.addSql(
        `create trigger sovereigns_roster_${event} after ${event} on sovereigns referencing ${referencing} for each statement execute function roster_tally_sovereigns()`,
      );
    }
    this.addSql(
      'create trigger agents_roster_out after delete on agents referencing old table as old_rows for each statement execute function roster_tally_agents_out()',
    );
  }
}
