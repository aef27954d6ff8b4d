import { Migration } from '@mikro-orm/migrations';
import { keptTallies } from './Migration0086PublicTallies.ts';
import { COURT_CASES } from './Migration0092CourtTallies.ts';

/**
 * Dissent without a scan (issue 20, points 6 and 7): /api/dissent read the newest 200 final cases
 * with every signature and counted what it read, so its figures stopped at 200 cases and its list
 * could not page. A final case now keeps its dissent count (`dissents`: the signatures on the
 * losing side, set by the signature that decides the case, api/governance/court.ts); the cases
 * with dissent are read newest first along a partial index, a page at a time; and two more
 * tallies of the cases' trigger keep the figures:
 * - `court:with_dissent`: final cases with at least one dissent;
 * - `court:dissents`: their dissenting signatures.
 * The cases' trigger function is made again with them (migration 0092's, the same names
 * recounted from the rows). SQL that PostgreSQL 15 and PGlite both run; one statement per addSql.
 */
export class Migration0093CourtDissent extends Migration {
  override name = 'Migration0093CourtDissent';

  override up(): void {
    for (const event of ['insert', 'update', 'delete', 'truncate'])
      this.addSql(`drop trigger governance_court_cases_tally_${event} on governance_court_cases`);
    this.addSql('drop function record_tally_governance_court_cases()');
    this.addSql('alter table governance_court_cases add column dissents integer not null default 0');
    this.addSql(`update governance_court_cases c
      set dissents = (select count(*) from governance_court_signatures g where g.case_id = c.id and g.verdict <> c.outcome)
      where c.state = 'final' and c.outcome is not null`);
    this.addSql(
      'create index governance_court_cases_dissent on governance_court_cases (id desc) where dissents > 0',
    );
    const kept = {
      ...COURT_CASES,
      truncated: [...COURT_CASES.truncated, 'court:with_dissent', 'court:dissents'],
      rows: (from: string, sign: string) => `${COURT_CASES.rows(from, sign)}
      union all select 'court:with_dissent', ${sign} from ${from} where dissents > 0
      union all select 'court:dissents', ${sign} * dissents from ${from} where dissents > 0`,
    };
    for (const statement of keptTallies(kept)) this.addSql(statement);
  }
}
