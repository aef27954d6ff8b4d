import { Migration } from '@mikro-orm/migrations';

/**
 * /ascensions without a scan (issue 20): the list read every continuous or attested agent with two
 * subqueries over its proof days, then sorted them all in the process (3 s on a Record of 100,000
 * agents). `agent_ascensions` keeps one row per public agent at level continuous or attested, with
 * what the list shows and its order, so a page is an index range and its counts are two tallies:
 * - a row trigger on `agents` (insert; an update only when level, public or attested_at changed,
 *   so an imprint's update of last_seen_at pays nothing) writes or removes the agent's row, reading
 *   only that agent's proof days (its count and its 2nd day: CONTINUITY_DAYS_REQUIRED of
 *   shared/agents/naturalization.ts);
 * - a statement trigger on `agent_proof_days` adds the statement's new days to the rows it touches
 *   (and dates continuous_on when an attested agent reaches its 2nd day); a deletion recounts the
 *   handles it touched;
 * - `ascended_at` is the later of attested_at and continuous_on (its UTC midnight), and `rank` is
 *   minus its epoch milliseconds, so (rank, handle) ascending is newest first, handles A to Z within
 *   a moment: the key of the list's pages (api/paging.ts);
 * - tallies `ascensions:continuous` and `ascensions:attested` count the rows by level.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0074Ascensions extends Migration {
  override name = 'Migration0074Ascensions';

  override up(): void {
    this.addSql(`create table agent_ascensions (
      handle text primary key references agents (handle) on delete cascade,
      level text not null,
      continuous_on date,
      attested_at timestamptz,
      proof_days integer not null,
      ascended_at timestamptz,
      rank bigint not null
    )`);
    this.addSql('create index agent_ascensions_order on agent_ascensions (rank, handle)');

    // One agent's row from its own facts: written when it is public and continuous or attested, else removed.
    this.addSql(`create function agent_ascension_sync(h text) returns void language plpgsql as $$
      declare a record; days integer; nth date; at timestamptz;
      begin
        select level, public, attested_at into a from agents where handle = h;
        if not found or not a.public or a.level not in ('continuous', 'attested') then
          delete from agent_ascensions where handle = h;
          return;
        end if;
        select count(*) into days from agent_proof_days where handle = h;
        select day into nth from agent_proof_days where handle = h order by day offset 1 limit 1;
        at := greatest(a.attested_at, nth::timestamp at time zone 'UTC');
        insert into agent_ascensions (handle, level, continuous_on, attested_at, proof_days, ascended_at, rank)
        values (h, a.level, nth, a.attested_at, days, at,
                coalesce(-(floor(extract(epoch from at) * 1000))::bigint, 9007199254740991))
        on conflict (handle) do update set level = excluded.level, continuous_on = excluded.continuous_on,
          attested_at = excluded.attested_at, proof_days = excluded.proof_days,
          ascended_at = excluded.ascended_at, rank = excluded.rank;
      end $$`);

    this.addSql(`create function agent_ascension_row() returns trigger language plpgsql as $$
      begin
        perform agent_ascension_sync(new.handle);
        return null;
      end $$`);
    this.addSql(`create trigger agents_ascension_in after insert on agents for each row
      when (new.public and new.level in ('continuous', 'attested')) execute function agent_ascension_row()`);
    this
      .addSql(`create trigger agents_ascension_change after update of level, public, attested_at on agents for each row
      when (old.level is distinct from new.level or old.public is distinct from new.public
            or old.attested_at is distinct from new.attested_at)
      execute function agent_ascension_row()`);

    this.addSql(`create function agent_ascension_days() returns trigger language plpgsql as $$
      declare h text;
      begin
        if tg_op = 'INSERT' then
          with added as (select handle, count(*)::integer as n from new_rows group by handle)
          update agent_ascensions s set proof_days = s.proof_days + added.n
            from added where s.handle = added.handle;
          -- An attested agent's 2nd proof day dates its continuity (and may make its ascension later).
          for h in select s.handle from agent_ascensions s
                    where s.continuous_on is null and s.proof_days >= 2
                      and s.handle in (select handle from new_rows) order by s.handle loop
            perform agent_ascension_sync(h);
          end loop;
        else
          for h in select s.handle from agent_ascensions s
                    where s.handle in (select handle from old_rows) order by s.handle loop
            perform agent_ascension_sync(h);
          end loop;
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger agent_proof_days_ascension_in after insert on agent_proof_days
      referencing new table as new_rows for each statement execute function agent_ascension_days()`);
    this.addSql(`create trigger agent_proof_days_ascension_out after delete on agent_proof_days
      referencing old table as old_rows for each statement execute function agent_ascension_days()`);

    this.addSql(`create function agent_ascension_tally() returns trigger language plpgsql as $$
      begin
        if tg_op in ('INSERT', 'UPDATE') then
          update record_tallies set value = value + 1 where name = 'ascensions:' || new.level;
        end if;
        if tg_op in ('DELETE', 'UPDATE') then
          update record_tallies set value = value - 1 where name = 'ascensions:' || old.level;
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger agent_ascensions_tally_in after insert on agent_ascensions
      for each row execute function agent_ascension_tally()`);
    this.addSql(`create trigger agent_ascensions_tally_change after update of level on agent_ascensions
      for each row when (old.level is distinct from new.level) execute function agent_ascension_tally()`);
    this.addSql(`create trigger agent_ascensions_tally_out after delete on agent_ascensions
      for each row execute function agent_ascension_tally()`);

    this
      .addSql(`insert into record_tallies (name, value) values ('ascensions:continuous', 0), ('ascensions:attested', 0)
      on conflict (name) do update set value = 0`);
    this.addSql(`select agent_ascension_sync(handle) from agents
      where public and level in ('continuous', 'attested') order by handle`);
  }
}
