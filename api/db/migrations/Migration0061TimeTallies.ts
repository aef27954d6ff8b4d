import { Migration } from '@mikro-orm/migrations';

/**
 * Counts by time without a scan: the season, the persona (now, 30 days
 * ago, month ends), the journal, the metabolism and the drift counted imprints, agents,
 * sovereigns and receipts created in a period with count(*) over every row of it — a quarter of
 * the Record for the season, all of it for the persona. `time_tallies` keeps, per name, one row
 * per UTC hour and one per UTC day with the rows created in it, moved by statement-level triggers
 * with transition tables in the writer's own transaction (as migrations 0022 and 0041), so a
 * period's count is a few dozen tally rows plus its ragged edges (api/organism/self/tallies.ts).
 * Names: `imprints.<kind>` (not held), `imprints_held.<kind>`, `imprints_by_agents`,
 * `evictions` (sequence above the window: imprint n evicts n − 500), `agents` (first_seen_at),
 * `sovereigns`, `receipts` (recorded_at). An update that moves no count writes no tally row.
 * Also, for the edges: indexes on imprints' and agents' times, a BRIN index on receipts' time, and
 * the imprints' BRIN index (migration 0042) summarizing each block range as soon as it is full.
 * SQL that PostgreSQL 15 and PGlite both run.
 */

/** Per source table: its time column and the (name, delta) pairs one row contributes. */
const SOURCES = [
  {
    table: 'imprints',
    at: 'created_at',
    pairs: `(case when r.held then 'imprints_held.' else 'imprints.' end || r.kind, 1),
            ('imprints_by_agents', (r.author_kind = 'agent')::int),
            ('evictions', (r.sequence > 500)::int)`,
  },
  { table: 'agents', at: 'first_seen_at', pairs: `('agents', 1)` },
  { table: 'sovereigns', at: 'created_at', pairs: `('sovereigns', 1)` },
  { table: 'receipts', at: 'recorded_at', pairs: `('receipts', 1)` },
] as const;

/** The (name, at, delta) rows of a set of rows of one source, each counted `sign` times. */
const contributions = (source: (typeof SOURCES)[number], rows: string, sign: 1 | -1) =>
  `select v.name, r.${source.at} as at, ${sign} * v.delta as delta
     from ${rows} r cross join lateral (values ${source.pairs}) v(name, delta)`;

/** Adds the contributions to the hour and day rows they fall in; rows whose sum is 0 are not written. */
const apply = (select: string) => `insert into time_tallies (name, span, start, n)
  select x.name, s.span, date_trunc(s.span, x.at, 'UTC'), sum(x.delta)
    from (${select}) x cross join (values ('hour'), ('day')) s(span)
   group by 1, 2, 3 having sum(x.delta) <> 0 order by 1, 2, 3
  on conflict (name, span, start) do update set n = time_tallies.n + excluded.n`;

export class Migration0061TimeTallies extends Migration {
  override name = 'Migration0061TimeTallies';

  override up(): void {
    this.addSql(`create table time_tallies (
      name text not null,
      span text not null check (span in ('hour', 'day')),
      start timestamptz not null,
      n bigint not null,
      primary key (name, span, start)
    )`);
    this.addSql('create index agents_first_seen_at on agents (first_seen_at)');
    // The imprints' BRIN index reads whole block ranges (thousands of rows, and every range not yet
    // summarized) for an edge of a few hundred: a btree on an increasing time is a cheap append.
    this.addSql('create index imprints_created_at on imprints (created_at)');
    this.addSql(
      'create index receipts_recorded_at_brin on receipts using brin (recorded_at) with (autosummarize = on)',
    );
    // A BRIN range not yet summarized is read whole by every query: summarize each one as soon as
    // it is full, not at the next vacuum (hundreds of thousands of rows later on a big Record).
    this.addSql('alter index imprints_created_at_brin set (autosummarize = on)');
    for (const source of SOURCES) {
      this.addSql(`${apply(contributions(source, source.table, 1))};`);
      const fn = `time_tally_${source.table}`;
      this.addSql(`create function ${fn}() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then ${apply(contributions(source, 'new_rows', 1))};
          elsif tg_op = 'UPDATE' then ${apply(`${contributions(source, 'new_rows', 1)} union all ${contributions(source, 'old_rows', -1)}`)};
          else ${apply(contributions(source, 'old_rows', -1))};
          end if;
          return null;
        end $$`);
      for (const [event, referencing] of [
        ['insert', 'new table as new_rows'],
        ['update', 'old table as old_rows new table as new_rows'],
        ['delete', 'old table as old_rows'],
      ]) {
        this.addSql(
          `create trigger ${source.table}_time_tally_${event} after ${event} on ${source.table} referencing ${referencing} for each statement execute function ${fn}()`,
        );
      }
    }
  }
}
