import { Migration } from '@mikro-orm/migrations';

/**
 * Flat cost as the Record grows (issue 20):
 * - The prevention experiment's findings kept incrementally
 *   (api/organism/experiments/prevention-counts.ts): `prevention_days` (per UTC day: imprints
 *   accepted, held per rule, and `dirty`), `prevention_minutes` (per UTC minute with a flood, how
 *   many authors flooded it) and `prevention_cursor` (the next imprint number to count, and the
 *   first day counted whole; null: the window is counted whole at the next run). The job counts
 *   only imprints past the cursor. Anything that changes a counted imprint behind the service's
 *   back — an update of what the findings read, a delete, an insert below the cursor, a truncate —
 *   marks its days dirty (or the whole count) in the writer's own statement, and the next run
 *   counts those days again from the rows.
 * - The dream constellation kept per term and pair (`dream_terms`, `dream_links`, the tally
 *   `dreams`), moved by a row trigger on `dreams` (one insert a day): /dream-constellation read
 *   every dream. A dream that is removed or changed recomputes its terms' first and last days.
 * - Storage of the small tallies every imprint batch rewrites: their updated columns are not
 *   indexed, so their updates are HOT while the row's page has room. Autovacuum visits each of
 *   them once 50 rows are dead whatever its size (scale factor 0: the default waits for 20 % of a
 *   table that grows by the day), without cost delay. The tallies that gain a row a day
 *   (`log_days`, `arrival_days`, `imprint_days`) keep half of each page free (fillfactor 50), so the
 *   day's row, rewritten on every batch, is not packed into a page the next days' rows filled; the
 *   fixed ones (`record_counter`, `record_tallies`, `receipt_tallies`, `imprint_hours_of_day`) hold a
 *   few dozen rows in one page and keep the default (measured in docs/scale.md).
 * SQL that PostgreSQL 15 and PGlite both run; one statement per addSql.
 */
const DAY_OF = (column: string) => `(${column} at time zone 'UTC')::date`;
/** The rows of a dirty mark, one per day, as prevention_days rows (counts filled by the next run). */
const MARK = (days: string) => `insert into prevention_days (day, accepted, held, dirty)
    select distinct day, 0, '{}'::jsonb, true from (${days}) d(day) order by 1
    on conflict (day) do update set dirty = true where not prevention_days.dirty`;

/** The distinct terms of a dream's `terms` (an array of { term, count, score }). */
const TERMS = (terms: string) => `select distinct x->>'term' as term from jsonb_array_elements(${terms}) x`;
/** Each pair of a dream's distinct terms once, ordered by code point (as the links are read). */
const PAIRS = (terms: string) =>
  `select p.term as a, q.term as b from (${TERMS(terms)}) p join (${TERMS(terms)}) q on p.term < q.term collate "C"`;

/** The tallies every imprint batch rewrites: fixed ones, and ones that gain a row a day. */
const HOT_TALLIES = ['record_counter', 'record_tallies', 'receipt_tallies', 'imprint_hours_of_day'];
const DAILY_TALLIES = ['log_days', 'arrival_days', 'imprint_days'];
const VACUUM_AT_50 =
  'autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 50, autovacuum_vacuum_cost_delay = 0';

export class Migration0082KeptFlat extends Migration {
  override name = 'Migration0082KeptFlat';

  override up(): void {
    // The prevention experiment's kept counts.
    this.addSql(`create table prevention_days (
      day date primary key,
      accepted bigint not null,
      held jsonb not null,
      dirty boolean not null
    )`);
    this.addSql(`create table prevention_minutes (
      minute timestamptz primary key,
      floods bigint not null
    )`);
    this.addSql(`create table prevention_cursor (
      id smallint primary key check (id = 1),
      next_sequence bigint,
      counted_from date
    )`);
    this.addSql('insert into prevention_cursor (id, next_sequence, counted_from) values (1, null, null)');
    this.addSql(`create function prevention_changed() returns trigger language plpgsql as $$
      begin
        ${MARK(`select ${DAY_OF('old.created_at')} union all select ${DAY_OF('new.created_at')}`)};
        return null;
      end $$`);
    this.addSql(`create function prevention_removed() returns trigger language plpgsql as $$
      begin
        ${MARK(`select ${DAY_OF('created_at')} from prevention_old_rows`)};
        return null;
      end $$`);
    // An insert at the head (the sequencer's) is past the cursor and marks nothing.
    this.addSql(`create function prevention_inserted() returns trigger language plpgsql as $$
      begin
        ${MARK(`select ${DAY_OF('n.created_at')} from prevention_new_rows n, prevention_cursor c
                 where c.id = 1 and n.sequence < c.next_sequence`)};
        return null;
      end $$`);
    this.addSql(`create function prevention_truncated() returns trigger language plpgsql as $$
      begin
        update prevention_cursor set next_sequence = null, counted_from = null where id = 1;
        return null;
      end $$`);
    this
      .addSql(`create trigger imprints_prevention_changed after update of held, held_reason, created_at, author_kind, author_ref, sequence
      on imprints for each row
      when (old.held is distinct from new.held or old.held_reason is distinct from new.held_reason
        or old.created_at is distinct from new.created_at or old.author_kind is distinct from new.author_kind
        or old.author_ref is distinct from new.author_ref or old.sequence is distinct from new.sequence)
      execute function prevention_changed()`);
    this.addSql(`create trigger imprints_prevention_removed after delete on imprints
      referencing old table as prevention_old_rows for each statement execute function prevention_removed()`);
    this.addSql(`create trigger imprints_prevention_inserted after insert on imprints
      referencing new table as prevention_new_rows for each statement execute function prevention_inserted()`);
    this.addSql(`create trigger imprints_prevention_truncated after truncate on imprints
      for each statement execute function prevention_truncated()`);

    // The dream constellation's kept terms and pairs.
    this.addSql(`create table dream_terms (
      term text primary key,
      dreams bigint not null,
      first_dreamt date not null,
      last_dreamt date not null
    )`);
    this.addSql('create index dream_terms_rank on dream_terms (dreams desc, term collate "C")');
    this.addSql(`create table dream_links (
      a text not null,
      b text not null,
      shared bigint not null,
      primary key (a, b)
    )`);
    this.addSql(`create function dream_terms_kept() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          update dream_terms t set dreams = t.dreams - 1 from (${TERMS('old.terms')}) o where t.term = o.term;
          update dream_links l set shared = l.shared - 1 from (${PAIRS('old.terms')}) o where l.a = o.a and l.b = o.b;
          delete from dream_links l using (${PAIRS('old.terms')}) o where l.a = o.a and l.b = o.b and l.shared <= 0;
          delete from dream_terms t using (${TERMS('old.terms')}) o where t.term = o.term and t.dreams <= 0;
          -- Rare (a dream is never changed or removed by the service): its terms' first and last days again.
          update dream_terms t set first_dreamt = s.first, last_dreamt = s.last
            from (select o.term, min(d.date) as first, max(d.date) as last from (${TERMS('old.terms')}) o
                    join dreams d on d.terms @> jsonb_build_array(jsonb_build_object('term', o.term)) group by o.term) s
           where t.term = s.term;
          update record_tallies set value = value - 1 where name = 'dreams';
        end if;
        if tg_op <> 'DELETE' then
          insert into dream_terms as t (term, dreams, first_dreamt, last_dreamt)
            select term, 1, new.date, new.date from (${TERMS('new.terms')}) n order by 1
            on conflict (term) do update set dreams = t.dreams + 1, first_dreamt = least(t.first_dreamt, excluded.first_dreamt),
              last_dreamt = greatest(t.last_dreamt, excluded.last_dreamt);
          insert into dream_links as l (a, b, shared) select a, b, 1 from (${PAIRS('new.terms')}) n order by 1, 2
            on conflict (a, b) do update set shared = l.shared + 1;
          update record_tallies set value = value + 1 where name = 'dreams';
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger dreams_terms_kept after insert or delete on dreams
      for each row execute function dream_terms_kept()`);
    this.addSql(`create trigger dreams_terms_kept_update after update of date, terms on dreams
      for each row when (old.date is distinct from new.date or old.terms is distinct from new.terms)
      execute function dream_terms_kept()`);
    // What a Record already holds.
    this.addSql(`insert into dream_terms (term, dreams, first_dreamt, last_dreamt)
      select term, count(*), min(date), max(date)
        from (select distinct d.date, x->>'term' as term from dreams d, jsonb_array_elements(d.terms) x) t
       group by term order by term`);
    this.addSql(`insert into dream_links (a, b, shared)
      select p.term, q.term, count(*)
        from (select distinct d.date, x->>'term' as term from dreams d, jsonb_array_elements(d.terms) x) p
        join (select distinct d.date, x->>'term' as term from dreams d, jsonb_array_elements(d.terms) x) q
          on p.date = q.date and p.term < q.term collate "C"
       group by 1, 2 order by 1, 2`);
    this.addSql(`insert into record_tallies (name, value) select 'dreams', count(*) from dreams
      on conflict (name) do update set value = excluded.value`);

    // The hot tallies' storage (no rewrite: new pages take the fillfactor).
    for (const table of HOT_TALLIES) this.addSql(`alter table ${table} set (${VACUUM_AT_50})`);
    for (const table of DAILY_TALLIES)
      this.addSql(`alter table ${table} set (fillfactor = 50, ${VACUUM_AT_50})`);
  }
}
