/**
 * What one verification run knows once its walks have advanced (knowledge.ts): the window read
 * whole through its indexes, the sequence's bounds, the problems the walks keep, and how far each
 * walk has reached in each mode — the `verification` block every kept answer carries.
 */
import type { Sql } from '../../db/database.ts';
import { windowFigures, type ProblemSummary, type TrialFacts, type Verification } from './trials.ts';
import { sequenceBounds, imprintsWalk, type ImprintCursor } from './walks/imprints.ts';
import { ledgerWalk, type LedgerCursor } from './walks/ledger.ts';
import { censusesWalk, type CensusCursor } from './walks/censuses.ts';
import type { WalkName } from './walks/walk.ts';
import type { RowOf } from '../../db/rows.ts';
import type { SelfKnowledgeProblem, SelfKnowledgeWalk } from '../entities.ts';

export const WALKS = [imprintsWalk, ledgerWalk, censusesWalk] as const;

export const VERIFICATION_RULE =
  'Each run of the organism.vigilance job verifies, per walk, at most `batch` items that are new since its last verified point (the frontier) and re-checks at most `batch` already verified items (a rolling lap from genesis); the operator command npm run verify:full re-verifies everything from genesis, resumably. The answer is the one the latest run kept, as of `as_of`.';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const previousDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** A cursor's position in words. */
function describe(walk: WalkName, cursor: unknown): string {
  if (walk === 'imprints') {
    const c = cursor as ImprintCursor;
    return c.next <= 1 ? 'nothing yet' : `imprint ${c.next - 1}`;
  }
  if (walk === 'ledger') {
    const c = cursor as LedgerCursor;
    if (c.index > 0) return `log day ${c.date}, leaf ${c.index - 1}`;
    return c.days === 0 ? 'nothing yet' : `the end of log day ${previousDay(c.date)}`;
  }
  const c = cursor as CensusCursor;
  return c.after === '' ? 'nothing yet' : `census ${c.after}`;
}

async function verification(sql: Sql, batch: number, ends: Map<string, boolean>): Promise<Verification> {
  const rows = await sql.query<
    Pick<
      RowOf<typeof SelfKnowledgeWalk>,
      'walk' | 'mode' | 'cursor' | 'checked' | 'lap_started_at' | 'lap_completed_at'
    >
  >(
    `select walk, mode, cursor, checked, to_char(lap_started_at at time zone 'UTC', ${ISO}) as lap_started_at,
            to_char(lap_completed_at at time zone 'UTC', ${ISO}) as lap_completed_at from self_knowledge_walks`,
  );
  const of = (walk: WalkName, mode: string) => {
    const row = rows.find((r) => r.walk === walk && r.mode === mode);
    if (!row) return null;
    return { ...row, cursor: typeof row.cursor === 'string' ? JSON.parse(row.cursor) : row.cursor };
  };
  return {
    rule: VERIFICATION_RULE,
    batch,
    walks: WALKS.map((walk) => {
      const frontier = of(walk.name, 'frontier');
      const sweep = of(walk.name, 'sweep');
      const full = of(walk.name, 'full');
      return {
        walk: walk.name,
        verified: frontier?.checked ?? 0,
        verified_through: describe(walk.name, frontier?.cursor ?? walk.genesis),
        complete: ends.get(walk.name) ?? false,
        ...(walk.name === 'ledger'
          ? { days: (frontier?.cursor as LedgerCursor | undefined)?.days ?? 0 }
          : {}),
        rechecked: {
          through: describe(walk.name, sweep?.cursor ?? walk.genesis),
          lap_started_at: sweep?.lap_started_at ?? null,
          last_lap_completed_at: sweep?.lap_completed_at ?? null,
        },
        full: full
          ? {
              through: describe(walk.name, full.cursor),
              started_at: full.lap_started_at,
              completed_at: full.lap_completed_at,
            }
          : null,
      };
    }),
  };
}

async function problems(sql: Sql): Promise<Map<string, ProblemSummary>> {
  // Raw: an ordered array_agg sliced to its first five, which Kysely has no builder for.
  type Problem = RowOf<typeof SelfKnowledgeProblem>;
  const rows = await sql.query<Pick<Problem, 'trial'> & { n: number; first: Problem['detail'][] }>(
    `select trial, count(*) as n, (array_agg(detail order by at_key))[1:5] as first
       from self_knowledge_problems group by trial`,
  );
  return new Map(rows.map((row) => [row.trial, { count: row.n, first: row.first }]));
}

/** Everything the trials and claims are built from, read inside the run's transaction. */
export async function readFacts(sql: Sql, batch: number, ends: Map<string, boolean>): Promise<TrialFacts> {
  return {
    window: await windowFigures(sql),
    bounds: await sequenceBounds(sql),
    problems: await problems(sql),
    verification: await verification(sql, batch, ends),
  };
}
