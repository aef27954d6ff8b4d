/**
 * GET /api/linearizability: a check over the recorded operation history. In the Record, a later
 * sequence number must never carry an earlier recorded time; in the receipt log, within one UTC
 * day, a later leaf index must never carry an earlier recorded_at. Violations are reported by
 * sequence numbers and leaf positions only (no ids, no subjects).
 *
 * Kept, not recomputed: the verification job's imprints and ledger walks check each pair as they
 * pass it (record_order, log_order in walks/), new items at the next run and old ones again lap
 * after lap, and store what they find where it lies. A request reads those problems (at most 50
 * listed) and the walks' coverage: never the history.
 */
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import { keptKnowledge } from './knowledge.ts';
import { constant } from '../../db/kysely.ts';

const LIST_LIMIT = 50;

interface Found {
  n: number;
  examples: Record<string, unknown>[];
}

async function found(ctx: AppContext, trial: string): Promise<Found> {
  const [[row], examples] = await Promise.all([
    ctx.db.kysely
      .selectFrom('self_knowledge_problems')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('trial', '=', trial)
      .execute(),
    ctx.db.kysely
      .selectFrom('self_knowledge_problems')
      .select('detail')
      .where('trial', '=', trial)
      .orderBy('at_key')
      .limit(constant(LIST_LIMIT))
      .execute(),
  ]);
  return {
    n: row?.n ?? 0,
    examples: examples.map((e) => JSON.parse(e.detail) as Record<string, unknown>),
  };
}

/** The host is for a first verification run when none was kept yet (keptKnowledge). */
export async function linearizabilityView(ctx: AppContext, host: CensusHost) {
  const kept = await keptKnowledge(ctx, host);
  const [record, log] = await Promise.all([found(ctx, 'record_order'), found(ctx, 'log_order')]);
  const walk = (name: string) => kept.trials.verification.walks.find((w) => w.walk === name);
  const imprints = walk('imprints');
  const ledger = walk('ledger');
  return {
    ok: true as const,
    schema: 'civitas.linearizability.v1' as const,
    checked_at: kept.as_of,
    linearizable: record.n === 0 && log.n === 0,
    record: {
      rule: 'Imprint sequence numbers increase with recorded time (ties allowed).',
      checked: imprints?.verified ?? 0,
      violations: record.n,
      examples: record.examples.map((e) => ({
        earlier_sequence: Number(e.earlier_sequence),
        later_sequence: Number(e.later_sequence),
        earlier_number_at: String(e.earlier_number_at),
        later_number_at: String(e.later_number_at),
      })),
    },
    receipts: {
      rule: 'Within a UTC log day, leaf indexes increase with recorded_at (ties allowed).',
      checked: ledger?.verified ?? 0,
      days: ledger && 'days' in ledger ? (ledger.days ?? 0) : 0,
      violations: log.n,
      examples: log.examples.map((e) => ({
        date: String(e.date),
        earlier_leaf_index: Number(e.earlier_leaf_index),
        later_leaf_index: Number(e.later_leaf_index),
      })),
    },
    limit: LIST_LIMIT,
  };
}
