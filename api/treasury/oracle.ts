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
import { sql as fragment } from 'kysely';
import { constant, type Row } from '../db/kysely.ts';
import type { Counts, RowOf } from '../db/rows.ts';
import type { TreasuryEntitlement } from './entities.ts';

type Sequence = Row<'imprints'>['sequence'];
/** A kept day, as YYYY-MM-DD. */
const DAY = fragment<string>`to_char(day, 'YYYY-MM-DD')`;

/** The deep report: aggregates of the public record only (no held content, no actor ids). */
export async function oracleReport(sql: Sql, now: Date) {
  const [kinds, authors, threads, receipts, window, days] = await Promise.all([
    sql.kysely
      .selectFrom('imprints')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
      .where('held', '=', constant(false))
      .where('body', 'is not', null)
      .groupBy('kind')
      .orderBy('kind')
      .execute(),
    sql.kysely
      .selectFrom('imprints')
      .select((eb) => [
        'author_kind',
        eb.fn.count<number>('author_ref').distinct().as('authors'),
        eb.fn.countAll<number>().as('imprints'),
      ])
      .where('held', '=', constant(false))
      .where('body', 'is not', null)
      .groupBy('author_kind')
      .orderBy('author_kind')
      .execute(),
    // Raw: threads counted over a derived table of replies per root.
    sql.query<Counts<'threads' | 'replies'> & { largest: number | null }>(
      `select count(*) as threads, coalesce(sum(n), 0) as replies, max(n) as largest
         from (select reply_to, count(*) as n from imprints where reply_to is not null and not held and body is not null group by reply_to) t`,
    ),
    // Receipts by step as the receipts' own trigger keeps them (migration 0041), not counted.
    sql.kysely
      .selectFrom('receipt_tallies')
      .select(['step', 'receipts as n'])
      .where('receipts', '>', constant(0))
      .orderBy('step')
      .execute(),
    // Raw: the window's rows only (the imprints that keep a body, along imprints_retained), and
    // the Record's counter, which is the newest sequence (gap-free 1..N).
    sql.query<Counts<'retained' | 'lifetime'> & { oldest: Sequence | null }>(
      `select (select count(*) from imprints where body is not null and not held) as retained,
              (select value from record_counter where id = 1) as lifetime,
              (select min(sequence) from imprints where body is not null) as oldest`,
    ),
    // Not-held imprints per UTC day as the imprints' trigger keeps them (migration 0062): the
    // seven whole days before today, and today so far.
    sql.kysely
      .selectFrom('imprint_days')
      .select((eb) => [DAY.as('day'), eb.fn.sum<number>('imprints').as('n')])
      .where('day', '>=', new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10))
      .groupBy('day')
      .having((eb) => eb.fn.sum('imprints'), '>', constant(0))
      .orderBy('day')
      .execute(),
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
      newest_sequence: window[0]?.lifetime ? window[0].lifetime : null,
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
    // Raw: the use is taken under the entitlement's row lock, in one statement.
    const [entitlement] = await tx.query<Pick<RowOf<typeof TreasuryEntitlement>, 'id' | 'uses_left'>>(
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
