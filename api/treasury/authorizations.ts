/**
 * Stripe issuing authorizations: approve or decline a card spend against the treasury strategy's limits.
 */
import type { AppContext } from '../context.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import { str, type StripeEvent } from './webhooks.ts';
import type { AuthorizationReason } from '../../shared/treasury/holder-contract.ts';
import { one, type Counts, type RowOf } from '../db/rows.ts';
import type { TreasuryStrategy } from './entities.ts';

/**
 * Approves or declines an Issuing authorization by the strategy named on the card's metadata
 * (default `operations`): currency must match, the amount must be within the per-authorization
 * limit and the strategy's approved total for the UTC day must stay within its daily limit. The
 * strategy row is locked, so concurrent authorizations cannot both slip under the daily limit.
 * A replayed authorization answers its recorded decision.
 */
export async function decideAuthorization(ctx: AppContext, event: StripeEvent) {
  const auth = event.data.object;
  const authId = str(auth.id, 255);
  if (!authId)
    throw new Refusal('invalid_request', {
      issues: [{ path: 'data.object.id', message: 'An authorization id is required.' }],
    });
  const pending = (
    auth.pending_request && typeof auth.pending_request === 'object' ? auth.pending_request : {}
  ) as Record<string, unknown>;
  const amount = Number(pending.amount ?? auth.amount);
  const currency = (str(pending.currency, 10) ?? str(auth.currency, 10) ?? '').toLowerCase();
  const card = (auth.card && typeof auth.card === 'object' ? auth.card : {}) as Record<string, unknown>;
  const cardMeta = (card.metadata && typeof card.metadata === 'object' ? card.metadata : {}) as Record<
    string,
    unknown
  >;
  const strategyName = str(cardMeta.strategy, 100) ?? 'operations';
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // Raw: the strategy's row lock serializes its authorizations (the daily limit below).
    const [strategy] = await tx.query<RowOf<typeof TreasuryStrategy>>(
      'select * from treasury_strategies where name = $1 for update',
      [strategyName],
    );
    const [previous] = await tx.kysely
      .selectFrom('treasury_authorizations')
      .select(['approved', 'reason'])
      .where('authorization_id', '=', authId)
      .execute();
    if (previous) return { approved: previous.approved, reason: previous.reason, duplicate: true };
    let approved = false;
    let reason: AuthorizationReason;
    if (!strategy) reason = 'unknown_strategy';
    else if (!Number.isSafeInteger(amount) || amount <= 0) reason = 'invalid_amount';
    else if (currency !== strategy.currency) reason = 'currency_mismatch';
    else if (amount > strategy.per_authorization_cents) reason = 'over_per_authorization_limit';
    else {
      const dayStart = `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;
      // Raw: the day's approved total the limit is checked against, under the lock above.
      const spent = one(
        await tx.query<Counts<'total'>>(
          'select coalesce(sum(amount_cents), 0) as total from treasury_authorizations where approved and strategy = $1 and decided_at >= $2',
          [strategy.name, dayStart],
        ),
      );
      if (spent.total + amount > strategy.daily_cents) reason = 'over_daily_limit';
      else {
        approved = true;
        reason = 'within_limits';
      }
    }
    await tx.query(
      `insert into treasury_authorizations (authorization_id, event_id, strategy, amount_cents, currency, approved, reason, decided_at) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        authId,
        event.id,
        strategy ? strategy.name : null,
        Number.isSafeInteger(amount) ? amount : 0,
        currency || 'unknown',
        approved,
        reason,
        now.toISOString(),
      ],
    );
    await recordReceipt(tx, {
      step: 'treasury.authorization',
      subject: `authorization:${approved ? 'approved' : 'declined'}`,
      at: now,
    });
    return { approved, reason, duplicate: false };
  });
}
