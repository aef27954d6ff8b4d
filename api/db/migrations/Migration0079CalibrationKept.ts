import { Migration } from '@mikro-orm/migrations';

/**
 * Calibration and the almanac without reading the history (issue 20):
 * - `calibration_tallies`: per forecaster kind and reliability bin (ten bins of probability), the
 *   resolved prophecies' count, how many came true, and the sums of their probabilities, Brier
 *   terms (exact, numeric: a probability has at most a few decimals) and log terms:
 *   /api/calibration read every resolved prophecy to score them.
 * - `calibration_streaks`: each actor's trailing run of prophecies that leaned the right way
 *   (ordered by resolution, due time, id) and of kept pacts (by resolution, id): /streaks.xml,
 *   /streaks.svg replayed every resolved prophecy and pact. A run is recomputed for the actor a
 *   change touches, walking that actor's rows newest first to the latest one that broke it, so it
 *   reads the run's own rows, never the history's. The tally `calibration_streaks` counts the
 *   runs of two or more.
 * Both are moved by row triggers on `prophecies` and `pacts` in the statement that resolves,
 * reassigns (erasure moves an act to the anonymous member) or removes a row.
 * - partial indexes for the almanac's open and answered pacts in their order: it walked every
 *   pact by due date to find the open ones.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
const RIGHT = `case when coalesce(p.outcome, false) then p.probability > 0.5 else p.probability < 0.5 end`;

export class Migration0079CalibrationKept extends Migration {
  override name = 'Migration0079CalibrationKept';

  override up(): void {
    this.addSql(`create table calibration_tallies (
      forecaster_kind text not null,
      bin smallint not null,
      n bigint not null,
      n_true bigint not null,
      sum_probability numeric not null default 0,
      sum_brier numeric not null default 0,
      sum_log double precision not null default 0,
      primary key (forecaster_kind, bin)
    )`);
    this.addSql(`create table calibration_streaks (
      kind text not null check (kind in ('prophecies', 'pacts')),
      actor text not null,
      forecaster_kind text not null,
      actor_id uuid,
      length bigint not null,
      since timestamptz not null,
      last_at timestamptz not null,
      last_id text not null,
      primary key (kind, actor)
    )`);
    this.addSql(
      'create index calibration_streaks_order on calibration_streaks (length desc, last_at desc) where length >= 2',
    );
    this
      .addSql(`create index prophecies_actor_resolved on prophecies (forecaster_kind, forecaster_id, resolved_at, due_at, id)
      where resolved_at is not null`);
    this.addSql(
      `create index pacts_author_resolved on pacts (author_id, resolved_at, id) where status <> 'open'`,
    );
    this.addSql(`create index pacts_open_due on pacts (due_at, id) where status = 'open'`);
    this.addSql(`create index pacts_answered on pacts (resolved_at desc, id desc) where status <> 'open'`);

    // The tally of runs of two or more (what /streaks.svg counts), moved as a run crosses two.
    this.addSql(`create function calibration_streak_set(k text, key text, fk text, a uuid, n bigint,
        first_at timestamptz, last_at timestamptz, last_id text) returns void language plpgsql as $$
      declare before bigint;
      begin
        select length into before from calibration_streaks where kind = k and actor = key;
        if n = 0 then
          delete from calibration_streaks where kind = k and actor = key;
        else
          insert into calibration_streaks (kind, actor, forecaster_kind, actor_id, length, since, last_at, last_id)
          values (k, key, fk, a, n, first_at, last_at, last_id)
          on conflict (kind, actor) do update set length = excluded.length, since = excluded.since,
            last_at = excluded.last_at, last_id = excluded.last_id;
        end if;
        if (coalesce(before, 0) >= 2) <> (n >= 2) then
          insert into record_tallies (name, value) values ('calibration_streaks', case when n >= 2 then 1 else -1 end)
          on conflict (name) do update set value = record_tallies.value + excluded.value;
        end if;
      end $$`);
    this
      .addSql(`create function calibration_prophecy_streak(k text, f uuid) returns void language plpgsql as $$
      declare
        key text := 'prophecies|' || k || '|' || coalesce(f::text, '');
        w record;
        n bigint;
        first_at timestamptz;
        last record;
      begin
        select p.resolved_at, p.due_at, p.id into w from prophecies p
         where p.forecaster_kind = k and p.forecaster_id is not distinct from f and p.resolved_at is not null
           and not (${RIGHT})
         order by p.resolved_at desc, p.due_at desc, p.id desc limit 1;
        select count(*), min(p.resolved_at) into n, first_at from prophecies p
         where p.forecaster_kind = k and p.forecaster_id is not distinct from f and p.resolved_at is not null
           and (w.id is null or (p.resolved_at, p.due_at, p.id) > (w.resolved_at, w.due_at, w.id));
        select p.resolved_at, p.id into last from prophecies p
         where p.forecaster_kind = k and p.forecaster_id is not distinct from f and p.resolved_at is not null
         order by p.resolved_at desc, p.due_at desc, p.id desc limit 1;
        perform calibration_streak_set('prophecies', key, k, f, n, first_at, last.resolved_at, last.id);
      end $$`);
    this.addSql(`create function calibration_pact_streak(a uuid) returns void language plpgsql as $$
      declare
        key text := 'pacts|' || coalesce(a::text, '');
        w record;
        n bigint;
        first_at timestamptz;
        last record;
      begin
        select p.resolved_at, p.id into w from pacts p
         where p.author_id is not distinct from a and p.status <> 'open' and p.status <> 'kept'
         order by p.resolved_at desc, p.id desc limit 1;
        select count(*), min(p.resolved_at) into n, first_at from pacts p
         where p.author_id is not distinct from a and p.status <> 'open'
           and (w.id is null or (p.resolved_at, p.id) > (w.resolved_at, w.id));
        select p.resolved_at, p.id into last from pacts p
         where p.author_id is not distinct from a and p.status <> 'open'
         order by p.resolved_at desc, p.id desc limit 1;
        perform calibration_streak_set('pacts', key, 'sovereign', a, n, first_at, last.resolved_at, last.id);
      end $$`);

    // A resolved prophecy's contribution to its kind's bin, added (sign 1) or taken away (-1).
    this
      .addSql(`create function calibration_tally_move(k text, probability double precision, outcome boolean, sign integer)
      returns void language plpgsql as $$
      declare o boolean := coalesce(outcome, false);
      begin
        insert into calibration_tallies as t (forecaster_kind, bin, n, n_true, sum_probability, sum_brier, sum_log)
        values (k, least(9, floor(probability * 10))::smallint, sign, case when o then sign else 0 end,
                sign * probability::numeric, sign * (probability::numeric - case when o then 1 else 0 end) ^ 2,
                sign * ln(case when o then probability else 1 - probability end))
        on conflict (forecaster_kind, bin) do update set n = t.n + excluded.n, n_true = t.n_true + excluded.n_true,
          sum_probability = t.sum_probability + excluded.sum_probability,
          sum_brier = t.sum_brier + excluded.sum_brier, sum_log = t.sum_log + excluded.sum_log;
      end $$`);
    this.addSql(`create function calibration_prophecy_kept() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.resolved_at is not null then
          perform calibration_tally_move(old.forecaster_kind, old.probability, old.outcome, -1);
        end if;
        if tg_op <> 'DELETE' and new.resolved_at is not null then
          perform calibration_tally_move(new.forecaster_kind, new.probability, new.outcome, 1);
        end if;
        if tg_op <> 'INSERT' and old.resolved_at is not null then
          perform calibration_prophecy_streak(old.forecaster_kind, old.forecaster_id);
        end if;
        if tg_op <> 'DELETE' and new.resolved_at is not null
           and (tg_op = 'INSERT' or old.resolved_at is null or (old.forecaster_kind, old.forecaster_id) is distinct from (new.forecaster_kind, new.forecaster_id)
                or old.resolved_at <> new.resolved_at or old.due_at <> new.due_at or old.outcome is distinct from new.outcome
                or old.probability <> new.probability) then
          perform calibration_prophecy_streak(new.forecaster_kind, new.forecaster_id);
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger prophecies_calibration_kept after insert or delete on prophecies
      for each row execute function calibration_prophecy_kept()`);
    this.addSql(`create trigger prophecies_calibration_kept_update
      after update of forecaster_kind, forecaster_id, probability, due_at, resolved_at, outcome on prophecies
      for each row when (old.forecaster_kind is distinct from new.forecaster_kind or old.forecaster_id is distinct from new.forecaster_id
        or old.probability is distinct from new.probability or old.due_at is distinct from new.due_at
        or old.resolved_at is distinct from new.resolved_at or old.outcome is distinct from new.outcome)
      execute function calibration_prophecy_kept()`);
    this.addSql(`create function calibration_pact_kept() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.status <> 'open' then
          perform calibration_pact_streak(old.author_id);
        end if;
        if tg_op <> 'DELETE' and new.status <> 'open'
           and (tg_op = 'INSERT' or old.status = 'open' or old.author_id is distinct from new.author_id
                or old.status <> new.status or old.resolved_at is distinct from new.resolved_at) then
          perform calibration_pact_streak(new.author_id);
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger pacts_calibration_kept after insert or delete on pacts
      for each row execute function calibration_pact_kept()`);
    this
      .addSql(`create trigger pacts_calibration_kept_update after update of author_id, status, resolved_at on pacts
      for each row when (old.author_id is distinct from new.author_id or old.status is distinct from new.status
        or old.resolved_at is distinct from new.resolved_at)
      execute function calibration_pact_kept()`);

    // What a Record already holds.
    this.addSql(
      `insert into record_tallies (name, value) values ('calibration_streaks', 0) on conflict (name) do nothing`,
    );
    this.addSql(`select calibration_tally_move(forecaster_kind, probability, outcome, 1)
      from prophecies where resolved_at is not null`);
    this.addSql(`select calibration_prophecy_streak(forecaster_kind, forecaster_id)
      from (select distinct forecaster_kind, forecaster_id from prophecies where resolved_at is not null) a`);
    this.addSql(`select calibration_pact_streak(author_id)
      from (select distinct author_id from pacts where status <> 'open') a`);
  }
}
