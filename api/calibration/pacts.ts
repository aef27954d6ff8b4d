/**
 * Pacts: public commitments with a due date and a stake in points (no money). Others may stake on
 * them (kept or broken, one stake per sovereign, not on your own pact, only while open and before
 * it is due). Once due, the pact is answered (kept or broken) by its author (POST /sovereign/pact
 * with `pact` and `outcome`), or by a steward on the author's behalf (operator POST /steward/pacts);
 * a pact nobody answers within PACT_GRACE_DAYS after its due date lapses as broken (job
 * `calibration.pacts-lapse`): nobody vouched that it was kept. Answering settles the stakes
 * (api/calibration/pact-answers.ts).
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { Counts, RowOf } from '../db/rows.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import type { ChangeStatus } from '../ledger/change-status.ts';
import type { Pact } from './entities.ts';
import { Refusal } from '../../shared/errors.ts';
import { forecasterOf, ISO, isoOf, type Face } from './columns.ts';
import { count } from '../../shared/plural.ts';
import { PACT_ID, PACT_SIDES, POINTS_MAX } from '../../shared/calibration/contract.ts';

export { PACT_ID, PACT_SIDES, POINTS_MAX };

/** Days after the due date in which the author (or a steward for them) may answer before the pact lapses. */
export const PACT_GRACE_DAYS = 14;
const DAY_MS = 86_400_000;
export type PactAnswerer = 'author' | 'steward' | 'lapse';

/** A pact's row under `for update` (stakes and answers wait for each other), due time as ISO text. */
export function lockPact(tx: Sql, id: string) {
  return tx.kysely
    .selectFrom('pacts')
    .select(['author_id', 'status', isoOf('due_at').as('due_at')])
    .where('id', '=', id)
    .forUpdate()
    .execute();
}

export async function makePact(
  ctx: AppContext,
  me: SignedIn,
  input: { title: string; detail?: string; stake: number; due_at: Date },
) {
  const now = ctx.clock.now();
  const id = newId('pact', now);
  return ctx.db.transaction(async (tx) => {
    const receipt = await recordReceipt(tx, { step: 'calibration.pact', subject: `pact:${id}`, at: now });
    await tx.query(
      `insert into pacts (id, author_id, title, detail, stake, made_at, due_at, status, receipt_id) values ($1, $2, $3, $4, $5, $6, $7, 'open', $8)`,
      [
        id,
        me.sovereignId,
        input.title,
        input.detail ?? '',
        input.stake,
        now.toISOString(),
        input.due_at.toISOString(),
        receipt.id,
      ],
    );
    return {
      ok: true as const,
      pact_id: id,
      status: 'open' as const,
      stake: input.stake,
      due_at: input.due_at.toISOString(),
      receipt_id: receipt.id,
      links: { claim: `/almanac/claim/${id}/card.svg`, almanac: '/almanac' },
    };
  });
}

export async function stakeOnPact(
  ctx: AppContext,
  me: SignedIn,
  input: { pact: string; points: number; side: (typeof PACT_SIDES)[number] },
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [pact] = await lockPact(tx, input.pact);
    if (!pact)
      throw new Refusal(
        'not_found',
        { pact: input.pact },
        `No pact ${input.pact} is recorded. See /almanac.`,
      );
    if (pact.author_id === me.sovereignId)
      throw new Refusal(
        'conflict',
        { pact: input.pact },
        'This is your own pact; its stake is already yours. Stakes come from others.',
      );
    if (pact.status !== 'open' || new Date(pact.due_at) <= now)
      throw new Refusal(
        'conflict',
        { pact: input.pact },
        'This pact is no longer open to stakes (it is due or answered).',
      );
    const receipt = await recordReceipt(tx, {
      step: 'calibration.stake',
      subject: `pact:${input.pact}`,
      at: now,
    });
    const [row] = await tx.query(
      `insert into pact_stakes (pact_id, sovereign_id, side, points, created_at, receipt_id) values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning pact_id`,
      [input.pact, me.sovereignId, input.side, input.points, now.toISOString(), receipt.id],
    );
    // Throwing rolls the receipt back with the transaction.
    if (!row)
      throw new Refusal(
        'conflict',
        { pact: input.pact },
        'You already staked on this pact; one stake per sovereign.',
      );
    return {
      ok: true as const,
      pact_id: input.pact,
      side: input.side,
      points: input.points,
      receipt_id: receipt.id,
    };
  });
}

/** A pact as PACT_SELECT selects it: times as ISO text, the author's public face, its stakes summed. */
type PactRow = Pick<
  RowOf<typeof Pact>,
  | 'id'
  | 'title'
  | 'detail'
  | 'stake'
  | 'status'
  | 'resolved_by'
  | 'resolution_receipt_id'
  | 'receipt_id'
  | 'author_id'
  | 'made_at'
  | 'due_at'
  | 'resolved_at'
> &
  Face &
  Counts<'staked_kept' | 'staked_broken' | 'stakers'> & { paid_out: number | null };

const PACT_SELECT = `select p.id, p.title, p.detail, p.stake, ${ISO('p.made_at')} as made_at, ${ISO('p.due_at')} as due_at, p.status,
    ${ISO('p.resolved_at')} as resolved_at, p.resolved_by, p.resolution_receipt_id, p.receipt_id, p.author_id, s.tag, s.callsign, s.callsign_visible, s.erased_at is not null as erased,
    coalesce(k.staked_kept, 0) as staked_kept, coalesce(k.staked_broken, 0) as staked_broken, k.stakers, k.paid_out
  from pacts p left join sovereigns s on s.id = p.author_id
  -- The pact's own stakes, read once through their key (pact_id first), not once per figure.
  cross join lateral (select sum(points) filter (where side = 'kept') as staked_kept, sum(points) filter (where side = 'broken') as staked_broken,
    count(*) as stakers, sum(payout) as paid_out from pact_stakes k where k.pact_id = p.id) k`;

/** The one pact projection: the author by public ref; stakes as point sums (stakers are not named). */
export function projectPact(row: PactRow, now: Date) {
  const state = row.status === 'open' && new Date(row.due_at) <= now ? 'awaiting_author' : row.status;
  return {
    id: row.id,
    author: forecasterOf({
      forecaster_kind: 'sovereign',
      forecaster_id: row.author_id,
      tag: row.tag,
      callsign: row.callsign,
      callsign_visible: row.callsign_visible,
      erased: row.erased,
    }),
    title: row.title,
    detail: row.detail,
    stake: row.stake,
    made_at: row.made_at,
    due_at: row.due_at,
    status: state as 'open' | 'awaiting_author' | 'kept' | 'broken',
    resolved_at: row.resolved_at,
    answered_by: row.resolved_by,
    resolution_receipt_id: row.resolution_receipt_id,
    lapses_at:
      row.status === 'open'
        ? new Date(Date.parse(row.due_at) + PACT_GRACE_DAYS * DAY_MS).toISOString()
        : null,
    stakes: {
      kept: row.staked_kept,
      broken: row.staked_broken,
      stakers: row.stakers,
      settled: row.status !== 'open',
      paid_out: row.status !== 'open' ? (row.paid_out ?? 0) : null,
    },
    receipt_id: row.receipt_id,
    links: {
      card: `/almanac/claim/${row.id}/card.svg`,
      answered: row.resolved_at ? `/almanac/claim/${row.id}/answered.svg` : null,
    },
  };
}
export type PactView = ReturnType<typeof projectPact>;

export async function pactById(sql: Sql, id: string, now: Date): Promise<PactView | null> {
  if (!PACT_ID.test(id)) return null;
  const [row] = await sql.query<PactRow>(`${PACT_SELECT} where p.id = $1`, [id]);
  return row ? projectPact(row, now) : null;
}

export async function pactList(
  sql: Sql,
  which: 'open' | 'answered',
  limit: number,
  now: Date,
): Promise<PactView[]> {
  const rows = await sql.query<PactRow>(
    which === 'open'
      ? `${PACT_SELECT} where p.status = 'open' order by p.due_at, p.id limit $1`
      : `${PACT_SELECT} where p.status <> 'open' order by p.resolved_at desc, p.id desc limit $1`,
    [limit],
  );
  return rows.map((row) => projectPact(row, now));
}

export const ANSWERED_BY: Record<PactAnswerer, string> = {
  author: 'its author',
  steward: "a steward on its author's behalf",
  lapse: 'lapse: nobody answered within the grace period',
};

/** Change status of `pact:<id>` (registered in api/families.ts). */
export async function pactChangeStatus(
  sql: Sql,
  ref: string,
  subject: string,
  now: Date,
): Promise<ChangeStatus | null> {
  const view = await pactById(sql, ref, now);
  if (!view) return null;
  const detail = {
    open: `Open until ${view.due_at}; ${count(view.stakes.stakers, 'stake', 'stakes')}.`,
    awaiting_author: `Due since ${view.due_at}; awaiting its author's answer (kept or broken), or a steward's on their behalf; unanswered, it lapses as broken at ${view.lapses_at}.`,
    kept: `Kept (answered ${view.resolved_at} by ${ANSWERED_BY[view.answered_by ?? 'author']}).`,
    broken: `Broken (answered ${view.resolved_at} by ${ANSWERED_BY[view.answered_by ?? 'author']}).`,
  }[view.status];
  return { subject, status: view.status, detail, as_of: now.toISOString() };
}
