import { Migration } from '@mikro-orm/migrations';

/**
 * Who was seen lately and agents by level without a scan (issue 20): /api/presence filtered every
 * agent's last_seen_at and /api/state grouped every agent by level on each request. Both are now
 * kept by one statement-level trigger per event on `agents`, with transition tables, in the
 * writer's own transaction:
 * - `agents_seen` (handle, last_seen_at) holds only agents seen in the last hour before the newest
 *   sighting written (the presence window is 15 minutes): a small table whose index stays small,
 *   instead of an index on `agents.last_seen_at` that every agent imprint would write into and
 *   that would break the door's HOT updates;
 * - tallies `agents_level:<level>` in record_tallies count every agent row by level.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0045AgentsSeenLevels extends Migration {
  override name = 'Migration0045AgentsSeenLevels';

  override up(): void {
    this.addSql(`create table agents_seen (
      handle text primary key,
      last_seen_at timestamptz not null
    )`);
    this.addSql('create index agents_seen_last_seen_at on agents_seen (last_seen_at)');
    this.addSql(`insert into agents_seen (handle, last_seen_at)
      select handle, last_seen_at from agents
       where last_seen_at >= (select max(last_seen_at) from agents) - interval '1 hour'`);
    this.addSql(`insert into record_tallies (name, value)
      select 'agents_level:' || level, count(*) from agents group by level
      on conflict (name) do update set value = excluded.value`);

    const added = "select 'agents_level:' || level as name, 1 as delta from new_rows";
    const removed = "select 'agents_level:' || level as name, -1 as delta from old_rows";
    const tally = (rows: string) => `insert into record_tallies (name, value)
          select name, sum(delta) from (${rows}) x group by name having sum(delta) <> 0 order by name
          on conflict (name) do update set value = record_tallies.value + excluded.value;`;
    // A sighting within the hour of the statement's newest is written when it moved (no join of the
    // transition tables: they have no statistics, and a nested loop over a bulk update is quadratic);
    // then anything an hour older than the newest is let go.
    const seen = (rows: string) => `with sighted as (
            insert into agents_seen (handle, last_seen_at)
            select n.handle, n.last_seen_at from ${rows}
             where n.last_seen_at >= (select max(last_seen_at) from ${rows}) - interval '1 hour' order by n.handle
            on conflict (handle) do update set last_seen_at = excluded.last_seen_at
             where agents_seen.last_seen_at < excluded.last_seen_at
            returning last_seen_at)
          delete from agents_seen where last_seen_at < (select max(last_seen_at) from sighted) - interval '1 hour';`;
    this.addSql(`create function agents_kept_views() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${tally(added)}
          ${seen('new_rows n')}
        elsif tg_op = 'UPDATE' then
          ${tally(`${added} union all ${removed}`)}
          ${seen('new_rows n')}
        else
          ${tally(removed)}
          delete from agents_seen where handle in (select handle from old_rows);
        end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ]) {
      this.addSql(
        `create trigger agents_kept_views_${event} after ${event} on agents referencing ${referencing} for each statement execute function agents_kept_views()`,
      );
    }
  }
}
