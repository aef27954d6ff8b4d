import { Migration } from '@mikro-orm/migrations';
import { keptTallies, type Kept } from './Migration0086PublicTallies.ts';

/**
 * The court's figures without a scan (issue 20, point 7): /api/verdicts and /verdicts counted
 * every case four times and every precedent on each request. They are tallies in record_tallies,
 * kept as migration 0086 keeps the transparency report's, by statement triggers in the writer's
 * own transaction:
 * - `court:cases`, `court:open` (state open) and `court:outcome:<outcome>` (uphold or overturn);
 * - `court:precedents`.
 * SQL that PostgreSQL 15 and PGlite both run; one statement per addSql.
 */
// The cases' own tallies (migration 0093 adds the dissents to them).
export const COURT_CASES: Kept = {
  table: 'governance_court_cases',
  truncated: ['court:cases', 'court:open', 'court:outcome:%'],
  rows: (from, sign) => `select 'court:cases' as name, ${sign} as delta from ${from}
      union all select 'court:open', ${sign} from ${from} where state = 'open'
      union all select 'court:outcome:' || outcome, ${sign} from ${from} where outcome is not null`,
};

const KEPT: Kept[] = [
  COURT_CASES,
  {
    table: 'governance_precedents',
    truncated: ['court:precedents'],
    rows: (from, sign) => `select 'court:precedents' as name, ${sign} as delta from ${from}`,
  },
];

export class Migration0092CourtTallies extends Migration {
  override name = 'Migration0092CourtTallies';

  override up(): void {
    for (const kept of KEPT) for (const statement of keptTallies(kept)) this.addSql(statement);
  }
}
