import { Migration } from '@mikro-orm/migrations';

/**
 * One system of time tallies (issue 20): migrations 0061 (`time_tallies`) and 0062
 * (`imprint_hours`, `imprint_days`, `cross_hours`, `arrival_days`) both counted imprints by hour
 * and day, each with its own triggers on every statement that writes imprints — and 0061's also
 * on every statement that writes receipts, agents and sovereigns, updates included: the window's
 * trim of each batch (`update imprints set body = null`) and every agent's last-seen update ran a
 * statement trigger over their transition tables only to write nothing. The shape of 0062 is kept
 * (typed columns, kind × author kind, the hour's first sequence, public arrivals; read by key by
 * the chronicle, pulse, story, today, cohorts, /api/cross and the window bounds), extended with
 * what only 0061 held, so the organism's readers move to it (api/organism/self/tallies.ts):
 * - `held` (held imprints) and `evictions` (imprints whose sequence is above the window of 500:
 *   imprint n evicts n − 500) on `imprint_hours` and `imprint_days`; a day row now exists for a
 *   kind and author kind with only held imprints (its `imprints` is 0);
 * - an imprint whose kind, time, author kind or sequence is changed in place, and a sovereign whose
 *   crossing time is, move their counts (row triggers that fire only when those columns change:
 *   nothing on the write path);
 * - receipts per day are the log days' sizes the ledger keeps as it appends (no trigger at all);
 * - `imprint_hours_of_day`: not-held imprints per UTC hour of day over the Record's life (24 rows,
 *   in the same statements), and an index of the imprints with the most replies: the story so far
 *   reads those instead of every hour and every day's threads since the first.
 * Then 0061's triggers, functions and table go. Its indexes on imprints', agents' and receipts'
 * times stay: the ragged edges of a period are counted from the rows through them.
 * On a database holding data, the new columns are backfilled from the imprints as they stand.
 * SQL that PostgreSQL 15 and PGlite both run; one statement per addSql (PGlite prepares each).
 */
const WINDOW = 500;
const HOUR = (column: string) => `date_trunc('hour', ${column} at time zone 'UTC') at time zone 'UTC'`;
const DAY = (column: string) => `(${column} at time zone 'UTC')::date`;

/** Upserts (hour, from, to, n) rows of `source` into cross_hours and their sums into the lifetime tallies (as 0062). */
const crossApply = (source: string) => `
  with c as (select hour, from_kind, to_kind, sum(n) as n from (${source}) s
              where to_kind is not null group by 1, 2, 3 having sum(n) <> 0),
  h as (insert into cross_hours (hour, from_kind, to_kind, replies) select hour, from_kind, to_kind, n from c order by 1, 2, 3
        on conflict (hour, from_kind, to_kind) do update set replies = cross_hours.replies + excluded.replies returning 1)
  insert into record_tallies (name, value)
  select 'replies:' || from_kind || ':' || to_kind, sum(n) from c group by 1 order by 1
  on conflict (name) do update set value = record_tallies.value + excluded.value;`;

/** Replies among `rows` (not held) whose parent is stored and not held (as 0062). */
const repliesOf = (rows: string, sign: string) => `
  select ${HOUR('n.created_at')} as hour, n.author_kind as from_kind,
         (select p.author_kind from imprints p where p.sequence = n.reply_to and not p.held) as to_kind, ${sign} as n
    from ${rows} n where n.reply_to is not null and not n.held`;

/** Adds `rows` (columns created_at, kind, author_kind, held, sequence), each counted `sign` times, to the hours and days. */
const hoursApply = (rows: string, sign: string) => `
  insert into imprint_hours (hour, kind, author_kind, imprints, first_sequence, held, evictions)
  select ${HOUR('created_at')}, kind, author_kind, ${sign} * count(*) filter (where not held), min(sequence),
         ${sign} * count(*) filter (where held), ${sign} * count(*) filter (where sequence > ${WINDOW})
    from ${rows} group by 1, 2, 3 order by 1, 2, 3
  on conflict (hour, kind, author_kind) do update set imprints = imprint_hours.imprints + excluded.imprints,
    first_sequence = least(imprint_hours.first_sequence, excluded.first_sequence),
    held = imprint_hours.held + excluded.held, evictions = imprint_hours.evictions + excluded.evictions;
  insert into imprint_days (day, kind, author_kind, imprints, held, evictions)
  select ${DAY('created_at')}, kind, author_kind, ${sign} * count(*) filter (where not held),
         ${sign} * count(*) filter (where held), ${sign} * count(*) filter (where sequence > ${WINDOW})
    from ${rows} group by 1, 2, 3 order by 1, 2, 3
  on conflict (day, kind, author_kind) do update set imprints = imprint_days.imprints + excluded.imprints,
    held = imprint_days.held + excluded.held, evictions = imprint_days.evictions + excluded.evictions;
  insert into imprint_hours_of_day (hour_of_day, imprints)
  select extract(hour from created_at at time zone 'UTC')::smallint, ${sign} * count(*) filter (where not held)
    from ${rows} group by 1 having count(*) filter (where not held) > 0 order by 1
  on conflict (hour_of_day) do update set imprints = imprint_hours_of_day.imprints + excluded.imprints;`;

/**
 * One row of a row trigger (`old` or `new`) as a one-row relation hoursApply reads, held as it
 * was (`old.held`): a hold changed in the same statement is moved by kept_imprint_hold, at the new time.
 */
const oneRow = (row: 'old' | 'new') =>
  `(values (${row}.created_at, ${row}.kind, ${row}.author_kind, old.held, ${row}.sequence)) as r(created_at, kind, author_kind, held, sequence)`;

const arrivalsApply = (rows: string, sign: string) => `
  insert into arrival_days (day, kind, members, public)
  select ${DAY('created_at')}, 'sovereign', ${sign} * count(*), ${sign} * count(*) from ${rows} group by 1 order by 1
  on conflict (day, kind) do update set members = arrival_days.members + excluded.members, public = arrival_days.public + excluded.public;`;

export class Migration0074OneTimeTally extends Migration {
  override name = 'Migration0074OneTimeTally';

  override up(): void {
    // 0061 out: its triggers first (the writes below must not move a table about to go), then its functions and table.
    for (const table of ['imprints', 'agents', 'sovereigns', 'receipts']) {
      for (const event of ['insert', 'update', 'delete'])
        this.addSql(`drop trigger if exists ${table}_time_tally_${event} on ${table}`);
      this.addSql(`drop function if exists time_tally_${table}()`);
    }
    this.addSql('drop table if exists time_tallies');

    for (const table of ['imprint_hours', 'imprint_days'])
      this.addSql(
        `alter table ${table} add column held bigint not null default 0, add column evictions bigint not null default 0`,
      );
    // Backfill from the imprints as they stand (held flags as released or set since, every sequence).
    this
      .addSql(`insert into imprint_hours (hour, kind, author_kind, imprints, first_sequence, held, evictions)
      select ${HOUR('created_at')}, kind, author_kind, count(*) filter (where not held), min(sequence),
             count(*) filter (where held), count(*) filter (where sequence > ${WINDOW})
        from imprints group by 1, 2, 3 order by 1, 2, 3
      on conflict (hour, kind, author_kind) do update set held = excluded.held, evictions = excluded.evictions`);
    this.addSql(`insert into imprint_days (day, kind, author_kind, imprints, held, evictions)
      select ${DAY('created_at')}, kind, author_kind, count(*) filter (where not held),
             count(*) filter (where held), count(*) filter (where sequence > ${WINDOW})
        from imprints group by 1, 2, 3 order by 1, 2, 3
      on conflict (day, kind, author_kind) do update set held = excluded.held, evictions = excluded.evictions`);
    // Not-held imprints by UTC hour of day over the Record's life: the story so far's busiest hour.
    this.addSql(
      `create table imprint_hours_of_day (hour_of_day smallint primary key, imprints bigint not null)`,
    );
    this.addSql(`insert into imprint_hours_of_day (hour_of_day, imprints)
      select extract(hour from hour at time zone 'UTC')::smallint, sum(imprints) from imprint_hours group by 1 order by 1`);
    // The story so far's busiest threads over the Record's life: the first rows of an index.
    this.addSql(
      'create index reply_counts_top on reply_counts (replies desc, sequence desc) where replies > 0',
    );
    // Every writer names them from here on.
    for (const table of ['imprint_hours', 'imprint_days'])
      this.addSql(`alter table ${table} alter column held drop default, alter column evictions drop default`);

    // The statement triggers of 0062 keep their names; their function now keeps the new columns too.
    this.addSql(`create or replace function kept_imprint_times() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${hoursApply('new_rows', '1')}
          ${crossApply(repliesOf('new_rows', '1'))}
        else
          ${hoursApply('old_rows', '-1')}
          ${crossApply(repliesOf('old_rows', '-1'))}
        end if;
        return null;
      end $$`);
    // A hold released (or set): the imprint moves between imprints and held; replies on either side of it (as 0062).
    this.addSql(`create or replace function kept_imprint_hold() returns trigger language plpgsql as $$
      declare d int := case when new.held then -1 else 1 end;
      begin
        insert into imprint_hours (hour, kind, author_kind, imprints, first_sequence, held, evictions)
        values (${HOUR('new.created_at')}, new.kind, new.author_kind, d, new.sequence, -d, 0)
        on conflict (hour, kind, author_kind) do update set imprints = imprint_hours.imprints + excluded.imprints,
          held = imprint_hours.held + excluded.held;
        insert into imprint_days (day, kind, author_kind, imprints, held, evictions)
        values (${DAY('new.created_at')}, new.kind, new.author_kind, d, -d, 0)
        on conflict (day, kind, author_kind) do update set imprints = imprint_days.imprints + excluded.imprints,
          held = imprint_days.held + excluded.held;
        insert into imprint_hours_of_day (hour_of_day, imprints)
        values (extract(hour from new.created_at at time zone 'UTC')::smallint, d)
        on conflict (hour_of_day) do update set imprints = imprint_hours_of_day.imprints + excluded.imprints;
        ${crossApply(`select ${HOUR('new.created_at')} as hour, new.author_kind as from_kind,
                         (select p.author_kind from imprints p where p.sequence = new.reply_to and not p.held) as to_kind, d as n
                       where new.reply_to is not null
                      union all
                      select ${HOUR('r.created_at')}, r.author_kind, new.author_kind, d
                        from imprints r where r.reply_to = new.sequence and not r.held`)}
        return null;
      end $$`);
    // An imprint changed in place (a repair, a test): out of its old hour and day, into its new ones.
    // The trim and the erasure set other columns, so this never fires on the write path.
    this.addSql(`create function kept_imprint_moved() returns trigger language plpgsql as $$
      begin
        ${hoursApply(oneRow('old'), '-1')}
        ${hoursApply(oneRow('new'), '1')}
        return null;
      end $$`);
    this
      .addSql(`create trigger imprints_kept_moved after update of kind, created_at, author_kind, sequence on imprints for each row
      when (old.kind is distinct from new.kind or old.created_at is distinct from new.created_at
            or old.author_kind is distinct from new.author_kind or old.sequence is distinct from new.sequence)
      execute function kept_imprint_moved()`);
    this.addSql(`create function kept_sovereign_moved() returns trigger language plpgsql as $$
      begin
        ${arrivalsApply(`(values (old.created_at)) as r(created_at)`, '-1')}
        ${arrivalsApply(`(values (new.created_at)) as r(created_at)`, '1')}
        return null;
      end $$`);
    this.addSql(`create trigger sovereigns_kept_moved after update of created_at on sovereigns for each row
      when (old.created_at is distinct from new.created_at) execute function kept_sovereign_moved()`);
  }
}
