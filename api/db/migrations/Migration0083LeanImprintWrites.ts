import { Migration } from '@mikro-orm/migrations';

/**
 * Lean imprint writes (issues 20 and 23, docs/record.md, "Round trips"):
 * - The imprints' tally trigger (migrations 0022, 0032) marked agents public with an update that
 *   ran on every statement that wrote imprints, the window's trim included, and fired the agents'
 *   statement triggers even when it matched no row. It now runs only when an agent is to be made
 *   public.
 * - The agents' kept views (migration 0045) no longer let go of sightings an hour older than the
 *   newest on every statement: the `agents.seen-prune` job does it once a minute
 *   (api/agents/seen.ts). Readers filter by time, so an old sighting kept a little longer changes
 *   no answer.
 * SQL that PostgreSQL 15 and PGlite both run; one statement per addSql.
 */
export class Migration0083LeanImprintWrites extends Migration {
  override name = 'Migration0083LeanImprintWrites';

  override up(): void {
    this.addSql(`create or replace function record_tally_imprints() returns trigger language plpgsql as $$
      declare quarantined bigint := 0; kept_held bigint := 0; touched bigint := 0; q bigint; h bigint; became bigint := 0;
      begin
        if tg_op in ('INSERT', 'UPDATE') then
          select count(*) filter (where n.unattested and not n.held), count(*) filter (where n.held), count(*) into quarantined, kept_held, touched from new_rows n;
          if exists (select 1 from agents
                      where not public and handle in (select n.author_ref from new_rows n where n.author_kind = 'agent' and not n.held)) then
            with shown as (
              update agents set public = true
               where not public and handle in (select n.author_ref from new_rows n where n.author_kind = 'agent' and not n.held)
              returning 1)
            select count(*) into became from shown;
          end if;
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
    const levels = (rows: string) => `insert into record_tallies (name, value)
          select name, sum(delta) from (${rows}) x group by name having sum(delta) <> 0 order by name
          on conflict (name) do update set value = record_tallies.value + excluded.value;`;
    const added = "select 'agents_level:' || level as name, 1 as delta from new_rows";
    const removed = "select 'agents_level:' || level as name, -1 as delta from old_rows";
    const sighted = `insert into agents_seen (handle, last_seen_at)
          select n.handle, n.last_seen_at from new_rows n
           where n.last_seen_at >= (select max(last_seen_at) from new_rows n) - interval '1 hour' order by n.handle
          on conflict (handle) do update set last_seen_at = excluded.last_seen_at
           where agents_seen.last_seen_at < excluded.last_seen_at;`;
    this.addSql(`create or replace function agents_kept_views() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${levels(added)}
          ${sighted}
        elsif tg_op = 'UPDATE' then
          ${levels(`${added} union all ${removed}`)}
          ${sighted}
        else
          ${levels(removed)}
          delete from agents_seen where handle in (select handle from old_rows);
        end if;
        return null;
      end $$`);
  }
}
