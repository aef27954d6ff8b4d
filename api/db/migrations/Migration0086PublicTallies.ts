import { Migration } from '@mikro-orm/migrations';

/**
 * The public figures of the transparency report and the treasury without a scan (issue 20, point
 * 7): /api/transparency grouped every data request and counted every open report, /api/treasury
 * summed every payment and approved authorization, /api/patrons grouped every patron, on each
 * request. Each is now a tally in record_tallies moved by a statement-level trigger with
 * transition tables in the writer's own transaction, as 0084 keeps the denials by reason:
 * - `data_requests:<kind>:<status>`: requests by kind and status;
 * - `imprint_reports_open`: reports still open;
 * - `treasury_income:<currency>:<purpose>` (minor units) and `treasury_payments:<currency>:<purpose>`;
 * - `treasury_spent:<currency>:<strategy>` (minor units) and `treasury_authorizations:<currency>:<strategy>`,
 *   approved ones only (an empty strategy is none: uncategorised);
 * - `treasury_patrons:<holder kind>`;
 * - `codex_pledges:<status>:<article>` and `codex_backs:<article>`: /api/codex/pledges grouped
 *   every pledge and joined every back to its pledge per article;
 * - `feedback:<topic>:<status>` (/api/feedback) and `mind_stances:<stance>:<claim>` (/api/mind).
 * A truncate drops a table's tallies with its rows. The patrons listed and the inscriptions are read
 * in their published order through an index each, the pledges to one article through another. SQL that PostgreSQL 15 and PGlite both run; one
 * statement per addSql.
 */
export interface Kept {
  table: string;
  /** the tallies a truncate of the table drops (`like` patterns) */
  truncated: string[];
  /** `select name, delta from <rows>` for one row set (`new_rows` or `old_rows`), with `sign` ±1 */
  rows: (from: string, sign: string) => string;
}

const KEPT: Kept[] = [
  {
    table: 'data_requests',
    truncated: ['data_requests:%'],
    rows: (from, sign) =>
      `select 'data_requests:' || kind || ':' || status as name, ${sign} as delta from ${from}`,
  },
  {
    table: 'imprint_reports',
    truncated: ['imprint_reports_open'],
    rows: (from, sign) =>
      `select 'imprint_reports_open' as name, ${sign} as delta from ${from} where status = 'open'`,
  },
  {
    table: 'treasury_payments',
    truncated: ['treasury_income:%', 'treasury_payments:%'],
    rows: (
      from,
      sign,
    ) => `select 'treasury_income:' || currency || ':' || purpose as name, ${sign} * amount_cents as delta from ${from}
      union all select 'treasury_payments:' || currency || ':' || purpose, ${sign} from ${from}`,
  },
  {
    table: 'treasury_authorizations',
    truncated: ['treasury_spent:%', 'treasury_authorizations:%'],
    rows: (
      from,
      sign,
    ) => `select 'treasury_spent:' || currency || ':' || coalesce(strategy, '') as name, ${sign} * amount_cents as delta from ${from} where approved
      union all select 'treasury_authorizations:' || currency || ':' || coalesce(strategy, ''), ${sign} from ${from} where approved`,
  },
  {
    table: 'treasury_patrons',
    truncated: ['treasury_patrons:%'],
    rows: (from, sign) => `select 'treasury_patrons:' || holder_kind as name, ${sign} as delta from ${from}`,
  },
  {
    table: 'governance_pledges',
    truncated: ['codex_pledges:%'],
    rows: (from, sign) =>
      `select 'codex_pledges:' || status || ':' || article as name, ${sign} as delta from ${from}`,
  },
  {
    // A back is counted under its pledge's article (a pledge keeps its article, and outlives its backs).
    table: 'governance_pledge_backs',
    truncated: ['codex_backs:%'],
    rows: (from, sign) => `select 'codex_backs:' || p.article as name, ${sign} as delta
      from ${from} b join governance_pledges p on p.id = b.pledge_id`,
  },
  {
    table: 'feedback',
    truncated: ['feedback:%'],
    rows: (from, sign) =>
      `select 'feedback:' || topic || ':' || status as name, ${sign} as delta from ${from}`,
  },
  {
    table: 'mind_stances',
    truncated: ['mind_stances:%'],
    rows: (from, sign) =>
      `select 'mind_stances:' || stance || ':' || claim as name, ${sign} as delta from ${from}`,
  },
];

/**
 * The statements that keep one table's tallies: the tallies counted from its rows as they stand,
 * the trigger function that moves them by each statement's transition tables (a truncate drops
 * them), and its four statement triggers. Migration 0092 keeps the court's figures the same way.
 */
export function keptTallies(kept: Kept): string[] {
  const apply = (rows: string) => `insert into record_tallies (name, value)
          select name, sum(delta) from (${rows}) x group by name having sum(delta) <> 0 order by name
          on conflict (name) do update set value = record_tallies.value + excluded.value;`;
  const added = kept.rows('new_rows', '1');
  const removed = kept.rows('old_rows', '-1');
  const truncate = kept.truncated.map((like) => `name like '${like}'`).join(' or ');
  return [
    `insert into record_tallies (name, value)
        select name, sum(delta) from (${kept.rows(kept.table, '1')}) x group by name having sum(delta) <> 0 order by name
        on conflict (name) do update set value = excluded.value`,
    `create function record_tally_${kept.table}() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then ${apply(added)}
          elsif tg_op = 'UPDATE' then ${apply(`${added} union all ${removed}`)}
          elsif tg_op = 'DELETE' then ${apply(removed)}
          else delete from record_tallies where ${truncate};
          end if;
          return null;
        end $$`,
    ...[
      ['insert', 'referencing new table as new_rows'],
      ['update', 'referencing old table as old_rows new table as new_rows'],
      ['delete', 'referencing old table as old_rows'],
      ['truncate', ''],
    ].map(
      ([event, referencing]) =>
        `create trigger ${kept.table}_tally_${event} after ${event} on ${kept.table} ${referencing} for each statement execute function record_tally_${kept.table}()`,
    ),
  ];
}

export class Migration0086PublicTallies extends Migration {
  override name = 'Migration0086PublicTallies';

  override up(): void {
    for (const kept of KEPT) for (const statement of keptTallies(kept)) this.addSql(statement);
    this.addSql('create index treasury_patrons_listed on treasury_patrons (since, public_ref) where listed');
    this.addSql(
      'create index governance_pledges_article on governance_pledges (article, created_at desc, id desc)',
    );
    this.addSql('create index vigilance_alerts_raised on vigilance_alerts (raised_at desc, id desc)');
    this.addSql('create index treasury_inscriptions_inscribed on treasury_inscriptions (inscribed_at, id)');
  }
}
