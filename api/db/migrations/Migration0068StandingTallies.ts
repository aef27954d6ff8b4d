import { Migration } from '@mikro-orm/migrations';

/**
 * /standing and /api/continuum without a scan (issue 20): both counted every agent by level and
 * /standing every sovereign on each request. Agents by level and sovereigns were already tallies
 * (migrations 0045, 0022); this adds the last figure and an index:
 * - tally `sovereigns_verified`: sovereign rows holding a human-uniqueness receipt
 *   (`uniqueness_verified_at is not null`), kept by row triggers that fire only when that column
 *   goes in, changes or goes out, so a sign-in's `last_seen_at` update pays nothing;
 * - `agents_last_heartbeat`: the continuum's latest heartbeats read newest first, up to 20, instead
 *   of filtering every agent. Only heartbeats write that column, so an imprint's update of
 *   `agents.last_seen_at` stays a HOT update.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0068StandingTallies extends Migration {
  override name = 'Migration0068StandingTallies';

  override up(): void {
    this.addSql(
      'create index agents_last_heartbeat on agents (last_heartbeat_at) where last_heartbeat_at is not null',
    );
    this.addSql(`insert into record_tallies (name, value)
      select 'sovereigns_verified', count(*) from sovereigns where uniqueness_verified_at is not null
      on conflict (name) do update set value = excluded.value`);
    this.addSql(`create function sovereigns_verified_tally() returns trigger language plpgsql as $$
      declare delta bigint := 0;
      begin
        if tg_op in ('INSERT', 'UPDATE') and new.uniqueness_verified_at is not null then delta := delta + 1; end if;
        if tg_op in ('DELETE', 'UPDATE') and old.uniqueness_verified_at is not null then delta := delta - 1; end if;
        if delta <> 0 then
          update record_tallies set value = value + delta where name = 'sovereigns_verified';
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger sovereigns_verified_in after insert on sovereigns
      for each row when (new.uniqueness_verified_at is not null) execute function sovereigns_verified_tally()`);
    this
      .addSql(`create trigger sovereigns_verified_change after update of uniqueness_verified_at on sovereigns
      for each row when ((old.uniqueness_verified_at is null) <> (new.uniqueness_verified_at is null))
      execute function sovereigns_verified_tally()`);
    this.addSql(`create trigger sovereigns_verified_out after delete on sovereigns
      for each row when (old.uniqueness_verified_at is not null) execute function sovereigns_verified_tally()`);
  }
}
