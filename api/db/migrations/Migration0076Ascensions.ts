import { Migration } from '@mikro-orm/migrations';

/**
 * /ascensions without a scan (issue 20): the list read every continuous or attested agent with two
 * subqueries over its proof days, then sorted them all in the process (3 s on a Record of 100,000
 * agents). `agent_ascensions` keeps one row per public agent at level continuous or attested, with
 * what the list shows and its order, so a page is an index range and its counts are two tallies.
 * Statement-level triggers with transition tables, set-wise, so a bulk statement (a seed settling
 * 100,000 agents) writes each table once, never a tally row once per agent:
 * - on `agents` (insert; update): the handles whose level, public or attested_at the statement
 *   changed (new rows except old rows: a hash, not a join of transition tables) are written or
 *   removed, each reading only its own proof days (their count and the 2nd day:
 *   CONTINUITY_DAYS_REQUIRED of shared/agents/naturalization.ts); an imprint's update of
 *   last_seen_at changes none of them and writes nothing;
 * - on `agent_proof_days`: an insert adds the statement's new days to the rows of those handles
 *   (and dates continuous_on when an attested agent reaches its 2nd day); a deletion recounts them;
 * - `ascended_at` is the later of attested_at and continuous_on (its UTC midnight), and `rank` is
 *   minus its epoch milliseconds, so (rank, handle) ascending is newest first, handles A to Z within
 *   a moment: the key of the list's pages (api/paging.ts);
 * - tallies `ascensions:continuous` and `ascensions:attested` count the rows by level.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export const SYNC = (handles: string) => `
  with h as (${handles}),
  gone as (
    delete from agent_ascensions s where s.handle in (select handle from h)
       and not exists (select 1 from agents a where a.handle = s.handle and a.public and a.level in ('continuous', 'attested'))),
  facts as (
    select a.handle, a.level, a.attested_at,
           (select count(*) from agent_proof_days d where d.handle = a.handle)::integer as days,
           (select d.day from agent_proof_days d where d.handle = a.handle order by d.day offset 1 limit 1) as nth
      from agents a where a.handle in (select handle from h) and a.public and a.level in ('continuous', 'attested')),
  timed as (select f.*, greatest(f.attested_at, f.nth::timestamp at time zone 'UTC') as at from facts f)
  insert into agent_ascensions (handle, level, continuous_on, attested_at, proof_days, ascended_at, rank)
  select handle, level, nth, attested_at, days, at,
         coalesce(-(floor(extract(epoch from at) * 1000))::bigint, 9007199254740991)
    from timed order by handle
  on conflict (handle) do update set level = excluded.level, continuous_on = excluded.continuous_on,
    attested_at = excluded.attested_at, proof_days = excluded.proof_days,
    ascended_at = excluded.ascended_at, rank = excluded.rank;`;

export class Migration0076Ascensions extends Migration {
  override name = 'Migration0076Ascensions';

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

    // Backfill before any trigger exists, then count.
    this.addSql(
      SYNC(`select handle from agents where public and level in ('continuous', 'attested')`).replace(
        /;\s*$/,
        '',
      ),
    );
    this.addSql(`insert into record_tallies (name, value)
      select 'ascensions:' || l, (select count(*) from agent_ascensions where level = l) from unnest(array['continuous', 'attested']) as l
      on conflict (name) do update set value = excluded.value`);

    this.addSql(`create function agent_ascension_agents() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${SYNC(`select handle from new_rows where public and level in ('continuous', 'attested')`)}
        else
          ${SYNC(`select handle, level, public, attested_at from new_rows
                  except select handle, level, public, attested_at from old_rows`)}
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger agents_ascension_in after insert on agents
      referencing new table as new_rows for each statement execute function agent_ascension_agents()`);
    this.addSql(`create trigger agents_ascension_change after update on agents
      referencing old table as old_rows new table as new_rows for each statement execute function agent_ascension_agents()`);

    this.addSql(`create function agent_ascension_days() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          with added as (select handle, count(*)::integer as n from new_rows group by handle)
          update agent_ascensions s set proof_days = s.proof_days + added.n
            from added where s.handle = added.handle;
          -- An attested agent's 2nd proof day dates its continuity (and may make its ascension later).
          ${SYNC(`select s.handle from agent_ascensions s where s.continuous_on is null and s.proof_days >= 2
                   and s.handle in (select handle from new_rows)`)}
        else
          ${SYNC(`select distinct handle from old_rows`)}
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger agent_proof_days_ascension_in after insert on agent_proof_days
      referencing new table as new_rows for each statement execute function agent_ascension_days()`);
    this.addSql(`create trigger agent_proof_days_ascension_out after delete on agent_proof_days
      referencing old table as old_rows for each statement execute function agent_ascension_days()`);

    this.addSql(`create function agent_ascension_tally() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into record_tallies (name, value)
          select 'ascensions:' || level, count(*) from new_rows group by level order by 1
          on conflict (name) do update set value = record_tallies.value + excluded.value;
        elsif tg_op = 'UPDATE' then
          insert into record_tallies (name, value)
          select name, sum(delta) from (select 'ascensions:' || level as name, 1 as delta from new_rows
                                        union all select 'ascensions:' || level, -1 from old_rows) x
           group by name having sum(delta) <> 0 order by name
          on conflict (name) do update set value = record_tallies.value + excluded.value;
        else
          insert into record_tallies (name, value)
          select 'ascensions:' || level, -count(*) from old_rows group by level order by 1
          on conflict (name) do update set value = record_tallies.value + excluded.value;
        end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ]) {
      this.addSql(
        `create trigger agent_ascensions_tally_${event} after ${event} on agent_ascensions referencing ${referencing} for each statement execute function agent_ascension_tally()`,
      );
    }
  }
}
