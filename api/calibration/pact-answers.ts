/**
 * Answering a due pact (kept or broken) and settling its stakes: by its author, by a steward on the
 * author's behalf, or by the lapse job once PACT_GRACE_DAYS have passed unanswered.
 */
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { one, type Counts } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import { lockPact, PACT_GRACE_DAYS, PACT_SIDES, type PactAnswerer } from './pacts.ts';

const DAY_MS = 86_400_000;

/**
 * Answers a due pact and settles its stakes, in one transaction with its receipt
 * (`calibration.pact.answer`, subject `pact:<id>`). Settlement is pari-mutuel in points: each stake
 * on the side that came true gets its points back plus its share of the other side's points
 * (rounded down); a stake on the other side gets nothing. Stakers are never named.
 */
export async function answerPact<By extends PactAnswerer>(
  ctx: AppContext,
  input: { pact: string; outcome: (typeof PACT_SIDES)[number]; by: By; authorId?: string },
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
    if (input.by === 'author' && pact.author_id !== input.authorId)
      throw new Refusal(
        'conflict',
        { pact: input.pact },
        'Only the author answers a pact (a steward can answer on their behalf).',
      );
    if (pact.status !== 'open')
      throw new Refusal(
        'conflict',
        { pact: input.pact, status: pact.status },
        `This pact is already answered: ${pact.status}.`,
      );
    if (new Date(pact.due_at) > now)
      throw new Refusal(
        'conflict',
        { pact: input.pact, due_at: pact.due_at },
        `This pact is not due yet; it can be answered from ${pact.due_at}.`,
      );
    const receipt = await recordReceipt(tx, {
      step: 'calibration.pact.answer',
      subject: `pact:${input.pact}`,
      at: now,
    });
    await tx.query(
      `update pacts set status = $2, resolved_at = $3, resolved_by = $4, resolution_receipt_id = $5 where id = $1`,
      [input.pact, input.outcome, now.toISOString(), input.by, receipt.id],
    );
    const settled = await settleStakes(tx, input.pact, input.outcome);
    return {
      ok: true as const,
      pact_id: input.pact,
      status: input.outcome,
      answered_by: input.by,
      resolved_at: now.toISOString(),
      stakes: settled,
      receipt_id: receipt.id,
      links: { answered: `/almanac/claim/${input.pact}/answered.svg` },
    };
  });
}

async function settleStakes(tx: Sql, pactId: string, outcome: string) {
  // Raw: the settlement's sums and payouts, under the pact's lock in the answer's transaction.
  const sides = one(
    await tx.query<Counts<'won' | 'lost'>>(
      `select coalesce(sum(points) filter (where side = $2), 0) as won, coalesce(sum(points) filter (where side <> $2), 0) as lost from pact_stakes where pact_id = $1`,
      [pactId, outcome],
    ),
  );
  const won = sides.won;
  const lost = sides.lost;
  await tx.query(
    `update pact_stakes set payout = case when side = $2 then points + floor(points::numeric * $3 / greatest($4, 1))::int else 0 end where pact_id = $1`,
    [pactId, outcome, lost, won],
  );
  const paid = one(
    await tx.query<Counts<'paid'>>(
      'select coalesce(sum(payout), 0) as paid from pact_stakes where pact_id = $1',
      [pactId],
    ),
  );
  return { on_winning_side: won, on_losing_side: lost, paid_out: paid.paid };
}

/** Job `calibration.pacts-lapse`: pacts unanswered PACT_GRACE_DAYS after their due date lapse as broken. */
export async function lapseOverduePacts(ctx: AppContext) {
  const cutoff = new Date(ctx.clock.now().getTime() - PACT_GRACE_DAYS * DAY_MS);
  const due = await ctx.db.kysely
    .selectFrom('pacts')
    .select('id')
    .where('status', '=', constant('open'))
    .where('due_at', '<=', cutoff.toISOString())
    .orderBy('due_at')
    .orderBy('id')
    .limit(constant(100))
    .execute();
  let lapsed = 0;
  for (const { id } of due) {
    try {
      await answerPact(ctx, { pact: id, outcome: 'broken', by: 'lapse' });
      lapsed += 1;
    } catch (error) {
      // Answered in the meantime by its author or a steward (another process): nothing to lapse.
      if (!(error instanceof Refusal)) throw error;
    }
  }
  return { lapsed };
}
