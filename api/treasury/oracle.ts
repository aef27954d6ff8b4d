/**
 * The Oracle: the paid deep report over the public Record, run against an entitlement (402 with a
 * quote without one; it never charges).
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import { kAnonymousCount } from '../../shared/boundaries/k-anonymity.ts';
import { currentQuote, type Holder } from './service.ts';

/** The deep report: aggregates of the public record only (no held content, no actor ids). */
export async function oracleReport(sql: Sql, now: Date) {
  const [kinds, authors, threads, receipts, window, days] = await Promise.all([
    sql.query<{ kind: string; n: number }>(
      `select kind, count(*) as n from imprints where not held and body is not null group by kind order by kind`,
    ),
    sql.query<{ author_kind: string; authors: number; imprints: number }>(
      `select author_kind, count(distinct author_ref) as authors, count(*) as imprints from imprints where not held and body is not null group by author_kind order by author_kind`,
    ),
    sql.query<{ threads: number; replies: number; largest: number | null }>(
      `select count(*) as threads, coalesce(sum(n), 0) as replies, max(n) as largest
         from (select reply_to, count(*) as n from imprints where reply_to is not null and not held and body is not null group by reply_to) t`,
    ),
    sql.query<{ step: string; n: number }>(
      `select step, count(*) as n from receipts group by step order by step`,
    ),
    sql.query<{ retained: number; lifetime: number; oldest: number | null; newest: number | null }>(
      `select count(*) filter (where body is not null and not held) as retained, (select value from record_counter where id = 1) as lifetime,
              min(sequence) filter (where body is not null) as oldest, max(sequence) as newest from imprints`,
    ),
    sql.query<{ day: string; n: number }>(
      `select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, count(*) as n from imprints
        where not held and created_at >= $1 group by 1 order by 1`,
      [new Date(now.getTime() - 7 * 86_400_000).toISOString()],
    ),
  ]);
  const byKind = (kind: string) => authors.find((row) => row.author_kind === kind);
  return {
    generated_at: now.toISOString(),
    source: 'public record only (retained, non-held imprints and receipt steps)',
    kinds: Object.fromEntries(kinds.map((row) => [row.kind, row.n])),
    // Humans and agents are two kinds, never summed; author counts are k-anonymous.
    authors_by_kind: {
      agents: {
        authors: kAnonymousCount(byKind('agent')?.authors ?? 0),
        imprints: byKind('agent')?.imprints ?? 0,
      },
      humans: {
        authors: kAnonymousCount(byKind('sovereign')?.authors ?? 0),
        imprints: byKind('sovereign')?.imprints ?? 0,
      },
    },
    threads: {
      threads: threads[0]?.threads ?? 0,
      replies: threads[0]?.replies ?? 0,
      largest: threads[0]?.largest ?? 0,
    },
    receipts_by_step: Object.fromEntries(receipts.map((row) => [row.step, row.n])),
    window: {
      retained: window[0]?.retained ?? 0,
      lifetime: window[0]?.lifetime ?? 0,
      oldest_retained_sequence:
        window[0]?.oldest === null || window[0]?.oldest === undefined ? null : window[0].oldest,
      newest_sequence:
        window[0]?.newest === null || window[0]?.newest === undefined ? null : window[0].newest,
      intake_last_7_days: days.map((row) => ({ day: row.day, imprints: row.n })),
    },
  };
}

/**
 * POST /api/oracle: consumes one use of the holder's oldest entitlement with uses left and
 * generates the report, in one transaction; without such an entitlement, 402 with the quote and
 * nothing charged.
 */
export async function runOracle(ctx: AppContext, holder: Holder | undefined) {
  const quote = currentQuote(ctx);
  if (!holder) throw new Refusal('quote', { quote });
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [entitlement] = await tx.query<{ id: string; uses_left: number }>(
      `update treasury_entitlements set uses_left = uses_left - 1
        where id = (select id from treasury_entitlements where holder_kind = $1 and holder_ref = $2 and capability = 'oracle' and uses_left > 0
                     order by granted_at, id limit 1 for update)
          and uses_left > 0
        returning id, uses_left`,
      [holder.kind, holder.ref],
    );
    if (!entitlement) throw new Refusal('quote', { quote });
    const id = newId('orc', now);
    const report = await oracleReport(tx, now);
    const receipt = await recordReceipt(tx, { step: 'treasury.oracle', subject: `oracle:${id}`, at: now });
    await tx.query(
      'insert into oracle_reports (id, holder_kind, holder_ref, entitlement_id, report, receipt_id, created_at) values ($1, $2, $3, $4, $5::jsonb, $6, $7)',
      [id, holder.kind, holder.ref, entitlement.id, JSON.stringify(report), receipt.id, now.toISOString()],
    );
    return {
      ok: true as const,
      report_id: id,
      uses_left: entitlement.uses_left,
      receipt_id: receipt.id,
      report,
    };
  });
}
