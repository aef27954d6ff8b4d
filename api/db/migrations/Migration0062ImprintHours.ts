import { Migration } from '@mikro-orm/migrations';

/**
 * The Record by hour and day without a scan: the chronicle, the pulse,
 * today, the time lens, the story and /api/cross grouped every imprint (or every reply joined to
 * its parent) of their period on each request, and the BRIN index of 0042 does not find a recent
 * window once the window's trims have moved old rows into new pages. Kept here, in the writer's
 * own transaction, whatever code path wrote the rows:
 * - `imprint_hours` / `imprint_days`: not-held imprints per UTC hour (day), kind and author kind;
 *   an hour also keeps its first sequence (held or not), so a reader finds the imprints of a recent
 *   window as a primary-key range instead of a scan;
 * - `cross_hours`: replies per UTC hour by (replier kind, kind replied to), both sides not held;
 *   their lifetime sums are the tallies `replies:<from>:<to>` in record_tallies;
 * - `arrival_days`: sovereigns (crossing day) and agents (first-seen day) per UTC day, and how many
 *   of them are public (every sovereign; an agent once it has a public imprint, 0032).
 * Imprints and arrivals are written by statements with transition tables (one aggregate per
 * statement); a hold released by a steward, a first public imprint or a moved first-seen is one
 * row, kept by a row trigger that fires only when that column changed.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
const HOUR = (column: string) => `date_trunc('hour', ${column} at time zone 'UTC') at time zone 'UTC'`;
const DAY = (column: string) => `(${column} at time zone 'UTC')::date`;

/** Upserts (hour, from, to, n) rows of `source` into cross_hours and their sums into the lifetime tallies. */
const crossApply = (source: string) => `
  with c as (select hour, from_kind, to_kind, sum(n) as n from (${source}) s
              where to_kind is not null group by 1, 2, 3 having sum(n) <> 0),
  h as (insert into cross_hours (hour, from_kind, to_kind, replies) select hour, from_kind, to_kind, n from c order by 1, 2, 3
        on conflict (hour, from_kind, to_kind) do update set replies = cross_hours.replies + excluded.replies returning 1)
  insert into record_tallies (name, value)
  select 'replies:' || from_kind || ':' || to_kind, sum(n) from c group by 1 order by 1
  on conflict (name) do update set value = record_tallies.value + excluded.value;`;

/** Replies among `rows` (not held) whose parent is stored and not held, one per row with sign `sign`. */
const repliesOf = (rows: string, sign: string) => `
  select ${HOUR('n.created_at')} as hour, n.author_kind as from_kind,
         (select p.author_kind from imprints p where p.sequence = n.reply_to and not p.held) as to_kind, ${sign} as n
    from ${rows} n where n.reply_to is not null and not n.held`;

const hoursApply = (rows: string, sign: string) => `
  insert into imprint_hours (hour, kind, author_kind, imprints, first_sequence)
  select ${HOUR('created_at')}, kind, author_kind, ${sign} * count(*) filter (where not held), min(sequence)
    from ${rows} group by 1, 2, 3 order by 1, 2, 3
  on conflict (hour, kind, author_kind) do update set imprints = imprint_hours.imprints + excluded.imprints,
    first_sequence = least(imprint_hours.first_sequence, excluded.first_sequence);
  insert into imprint_days (day, kind, author_kind, imprints)
  select ${DAY('created_at')}, kind, author_kind, ${sign} * count(*) from ${rows} where not held group by 1, 2, 3 order by 1, 2, 3
  on conflict (day, kind, author_kind) do update set imprints = imprint_days.imprints + excluded.imprints;`;

const arrivalsApply = (rows: string, kind: string, at: string, isPublic: string, sign: string) => `
  insert into arrival_days (day, kind, members, public)
  select ${DAY(at)}, '${kind}', ${sign} * count(*), ${sign} * count(*) filter (where ${isPublic}) from ${rows} group by 1 order by 1
  on conflict (day, kind) do update set members = arrival_days.members + excluded.members, public = arrival_days.public + excluded.public;`;

export class Migration0062ImprintHours extends Migration {
  override name = 'Migration0062ImprintHours';

  override up(): void {
    this.addSql(`create table imprint_hours (
      hour timestamptz not null, kind text not null, author_kind text not null,
      imprints bigint not null, first_sequence bigint not null,
      primary key (hour, kind, author_kind))`);
    this.addSql(`create table imprint_days (
      day date not null, kind text not null, author_kind text not null, imprints bigint not null,
      primary key (day, kind, author_kind))`);
    this.addSql(`create table cross_hours (
      hour timestamptz not null, from_kind text not null, to_kind text not null, replies bigint not null,
      primary key (hour, from_kind, to_kind))`);
    this.addSql(`create table arrival_days (
      day date not null, kind text not null, members bigint not null, public bigint not null,
      primary key (day, kind))`);

    // What is stored already (one statement per addSql: PGlite prepares each).
    for (const statement of [
      hoursApply('imprints', '1'),
      crossApply(repliesOf('imprints', '1')),
      arrivalsApply('sovereigns', 'sovereign', 'created_at', 'true', '1'),
      arrivalsApply('agents', 'agent', 'first_seen_at', 'public', '1'),
    ].flatMap((sql) => sql.split(';'))) {
      if (statement.trim()) this.addSql(statement);
    }

    this.addSql(`create function kept_imprint_times() returns trigger language plpgsql as $$
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
    this.addSql(
      'create trigger imprints_kept_times_in after insert on imprints referencing new table as new_rows for each statement execute function kept_imprint_times()',
    );
    this.addSql(
      'create trigger imprints_kept_times_out after delete on imprints referencing old table as old_rows for each statement execute function kept_imprint_times()',
    );
    // A hold released (or set): the imprint's own count, and the replies on either side of it.
    this.addSql(`create function kept_imprint_hold() returns trigger language plpgsql as $$
      declare d int := case when new.held then -1 else 1 end;
      begin
        insert into imprint_hours (hour, kind, author_kind, imprints, first_sequence)
        values (${HOUR('new.created_at')}, new.kind, new.author_kind, d, new.sequence)
        on conflict (hour, kind, author_kind) do update set imprints = imprint_hours.imprints + excluded.imprints;
        insert into imprint_days (day, kind, author_kind, imprints)
        values (${DAY('new.created_at')}, new.kind, new.author_kind, d)
        on conflict (day, kind, author_kind) do update set imprints = imprint_days.imprints + excluded.imprints;
        ${crossApply(`select ${HOUR('new.created_at')} as hour, new.author_kind as from_kind,
                         (select p.author_kind from imprints p where p.sequence = new.reply_to and not p.held) as to_kind, d as n
                       where new.reply_to is not null
                      union all
                      select ${HOUR('r.created_at')}, r.author_kind, new.author_kind, d
                        from imprints r where r.reply_to = new.sequence and not r.held`)}
        return null;
      end $$`);
    this.addSql(
      'create trigger imprints_kept_hold after update of held on imprints for each row when (old.held is distinct from new.held) execute function kept_imprint_hold()',
    );

    this.addSql(`create function kept_arrivals() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'sovereigns' then
          if tg_op = 'INSERT' then ${arrivalsApply('new_rows', 'sovereign', 'created_at', 'true', '1')}
          else ${arrivalsApply('old_rows', 'sovereign', 'created_at', 'true', '-1')}
          end if;
        elsif tg_op = 'INSERT' then ${arrivalsApply('new_rows', 'agent', 'first_seen_at', 'public', '1')}
        else ${arrivalsApply('old_rows', 'agent', 'first_seen_at', 'public', '-1')}
        end if;
        return null;
      end $$`);
    for (const table of ['sovereigns', 'agents']) {
      this.addSql(
        `create trigger ${table}_kept_arrivals_in after insert on ${table} referencing new table as new_rows for each statement execute function kept_arrivals()`,
      );
      this.addSql(
        `create trigger ${table}_kept_arrivals_out after delete on ${table} referencing old table as old_rows for each statement execute function kept_arrivals()`,
      );
    }
    // An agent made public by its first public imprint, or whose first-seen moved: one row.
    this.addSql(`create function kept_agent_arrival() returns trigger language plpgsql as $$
      begin
        insert into arrival_days (day, kind, members, public)
        select day, 'agent', sum(m), sum(p) from (values (${DAY('old.first_seen_at')}, -1, -(old.public::int)),
                                                      (${DAY('new.first_seen_at')}, 1, new.public::int)) v(day, m, p)
         group by day order by day
        on conflict (day, kind) do update set members = arrival_days.members + excluded.members, public = arrival_days.public + excluded.public;
        return null;
      end $$`);
    this
      .addSql(`create trigger agents_kept_arrival after update of first_seen_at, public on agents for each row
      when (old.first_seen_at is distinct from new.first_seen_at or old.public is distinct from new.public)
      execute function kept_agent_arrival()`);
  }
}
