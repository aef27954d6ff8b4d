/**
 * GET /api/linearizability: a check over the recorded operation history. In the Record, a later
 * sequence number must never carry an earlier recorded time; in the receipt log, within one UTC
 * day, a later leaf index must never carry an earlier recorded_at. Violations are reported by
 * sequence numbers and leaf positions only (no ids, no subjects).
 */
import type { AppContext } from '../../context.ts';

const LIST_LIMIT = 50;
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export async function linearizabilityProjection(ctx: AppContext) {
  const [record] = await ctx.db.query<Record<string, string | number>>(
    `select count(*) as checked, count(*) filter (where created_at < prev_at) as violations
       from (select created_at, lag(created_at) over (order by sequence) as prev_at from imprints) s`,
  );
  const recordViolations = await ctx.db.query<Record<string, unknown>>(
    `select prev_sequence, sequence, to_char(prev_at at time zone 'UTC', ${ISO}) as earlier_number_at, to_char(created_at at time zone 'UTC', ${ISO}) as later_number_at
       from (select sequence, created_at, lag(sequence) over (order by sequence) as prev_sequence, lag(created_at) over (order by sequence) as prev_at from imprints) s
      where created_at < prev_at order by sequence limit $1`,
    [LIST_LIMIT],
  );
  const [log] = await ctx.db.query<Record<string, string | number>>(
    `select count(*) as checked, count(distinct log_date) as days, count(*) filter (where recorded_at < prev_at) as violations
       from (select log_date, recorded_at, lag(recorded_at) over (partition by log_date order by leaf_index) as prev_at from receipts) s`,
  );
  const logViolations = await ctx.db.query<Record<string, unknown>>(
    `select to_char(log_date, 'YYYY-MM-DD') as date, prev_index, leaf_index
       from (select log_date, leaf_index, recorded_at, lag(leaf_index) over (partition by log_date order by leaf_index) as prev_index,
                    lag(recorded_at) over (partition by log_date order by leaf_index) as prev_at from receipts) s
      where recorded_at < prev_at order by log_date, leaf_index limit $1`,
    [LIST_LIMIT],
  );
  const recordCount = Number(record.violations);
  const logCount = Number(log.violations);
  return {
    ok: true as const,
    schema: 'civitas.linearizability.v1' as const,
    checked_at: ctx.clock.now().toISOString(),
    linearizable: recordCount === 0 && logCount === 0,
    record: {
      rule: 'Imprint sequence numbers increase with recorded time (ties allowed).',
      checked: Number(record.checked),
      violations: recordCount,
      examples: recordViolations.map((row) => ({
        earlier_sequence: Number(row.prev_sequence),
        later_sequence: Number(row.sequence),
        earlier_number_at: String(row.earlier_number_at),
        later_number_at: String(row.later_number_at),
      })),
    },
    receipts: {
      rule: 'Within a UTC log day, leaf indexes increase with recorded_at (ties allowed).',
      checked: Number(log.checked),
      days: Number(log.days),
      violations: logCount,
      examples: logViolations.map((row) => ({
        date: String(row.date),
        earlier_leaf_index: Number(row.prev_index),
        later_leaf_index: Number(row.leaf_index),
      })),
    },
    limit: LIST_LIMIT,
  };
}
