/**
 * Stripe webhook events, applied once per event id: checkout sessions completed (entitlements,
 * patronage units, inscriptions and covenants granted) or failed.
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { publicRefOf, type Holder, type Purpose } from './service.ts';
import type { WebhookOutcome } from '../../shared/treasury/holder-contract.ts';
import type { RowOf } from '../db/rows.ts';
import type { TreasuryIntent, TreasuryProcessedEvent } from './entities.ts';

export interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

export function asStripeEvent(value: unknown): StripeEvent | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const event = value as Record<string, unknown>;
  const data = event.data as Record<string, unknown> | undefined;
  if (
    typeof event.id !== 'string' ||
    !/^[A-Za-z0-9_]{1,255}$/.test(event.id) ||
    typeof event.type !== 'string' ||
    event.type.length > 200
  )
    return undefined;
  if (!data || typeof data.object !== 'object' || data.object === null) return undefined;
  return { id: event.id, type: event.type, data: { object: data.object as Record<string, unknown> } };
}

export const str = (value: unknown, max = 500) =>
  typeof value === 'string' && value.length <= max ? value : undefined;

/** Checkout events that carry a session whose payment may settle later (asynchronous methods). */
const CHECKOUT_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
] as const;

/**
 * Applies one verified event at most once: the event id is inserted into treasury_processed_events
 * in the same transaction as its effects; a replay (sequential or concurrent) finds the key taken.
 * An event that found the payment still pending (`awaiting_payment`) is not consumed for good: a
 * redelivery is looked at again, and the later `async_payment_succeeded` (its own event) applies.
 */
export async function applyStripeEvent(ctx: AppContext, event: StripeEvent) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // Raw: the event's key is claimed (or an awaiting one reclaimed) in one statement.
    const [fresh] = await tx.query<Pick<RowOf<typeof TreasuryProcessedEvent>, 'event_id'>>(
      `insert into treasury_processed_events (event_id, type, outcome, processed_at) values ($1, $2, 'pending', $3)
       on conflict (event_id) do update set processed_at = excluded.processed_at
         where treasury_processed_events.outcome = 'awaiting_payment'
       returning event_id`,
      [event.id, event.type, now.toISOString()],
    );
    if (!fresh)
      return {
        ok: true as const,
        received: true as const,
        duplicate: true,
        outcome: 'already_applied' as const,
      };
    const outcome: WebhookOutcome = (CHECKOUT_EVENTS as readonly string[]).includes(event.type)
      ? await applyCheckoutEvent(tx, event, now)
      : 'ignored';
    await tx.query('update treasury_processed_events set outcome = $2 where event_id = $1', [
      event.id,
      outcome,
    ]);
    return { ok: true as const, received: true as const, duplicate: false, outcome };
  });
}

/** The intent a checkout session names (metadata.intent, else client_reference_id), locked. */
async function intentOfSession(tx: Sql, session: Record<string, unknown>) {
  const metadata = (
    session.metadata && typeof session.metadata === 'object' ? session.metadata : {}
  ) as Record<string, unknown>;
  const intentId = str(metadata.intent, 40) ?? str(session.client_reference_id, 40);
  if (!intentId) return undefined;
  // Raw: the intent's row lock, held until the event is applied.
  const [intent] = await tx.query<Pick<RowOf<typeof TreasuryIntent>, 'id' | 'status'>>(
    'select id, status from treasury_intents where id = $1 for update',
    [intentId],
  );
  return intent;
}

/**
 * completed + paid, or async_payment_succeeded → the payment applies. completed but unpaid → the
 * intent waits (`awaiting_payment`), nothing is granted. async_payment_failed → the intent records
 * `payment_failed`, nothing is granted (a new checkout can try again).
 */
async function applyCheckoutEvent(tx: Sql, event: StripeEvent, now: Date): Promise<WebhookOutcome> {
  const session = event.data.object;
  const failed = event.type === 'checkout.session.async_payment_failed';
  const unpaid =
    event.type === 'checkout.session.completed' &&
    session.payment_status !== undefined &&
    session.payment_status !== 'paid';
  if (!failed && !unpaid) return applyCheckoutCompleted(tx, event, now);
  const intent = await intentOfSession(tx, session);
  if (intent && intent.status !== 'paid') {
    await tx.query('update treasury_intents set status = $2 where id = $1', [
      intent.id,
      failed ? 'payment_failed' : 'awaiting_payment',
    ]);
  }
  return failed ? 'payment_failed' : 'awaiting_payment';
}

async function applyCheckoutCompleted(tx: Sql, event: StripeEvent, now: Date): Promise<WebhookOutcome> {
  const session = event.data.object;
  const metadata = (
    session.metadata && typeof session.metadata === 'object' ? session.metadata : {}
  ) as Record<string, unknown>;
  const intentId = str(metadata.intent, 40) ?? str(session.client_reference_id, 40);
  // Raw: the intent's row lock, held until the payment is applied.
  const [intent] = intentId
    ? await tx.query<RowOf<typeof TreasuryIntent>>(
        'select * from treasury_intents where id = $1 for update',
        [intentId],
      )
    : [];
  let holder: Holder | undefined;
  let purpose: Purpose;
  let uses: number;
  let detail: Record<string, unknown> = {};
  if (intent) {
    if (intent.status === 'paid') return 'intent_already_paid';
    holder = { kind: intent.holder_kind, ref: intent.holder_ref, publicRef: intent.public_ref };
    purpose = intent.purpose;
    uses = intent.uses;
    detail = intent.detail ?? {};
  } else {
    // No intent: a holder named directly in metadata (agent handle, or sovereign id set server-side).
    purpose =
      (['oracle', 'patronage', 'covenant', 'fund_evolution', 'inscription'] as const).find(
        (p) => p === metadata.purpose,
      ) ?? 'oracle';
    uses = Math.min(Math.max(Number.parseInt(String(metadata.uses ?? '1'), 10) || 1, 1), 100);
    const handle = str(metadata.agent, 63)?.toLowerCase();
    const sovereign = str(metadata.sovereign, 36);
    if (handle) {
      const [row] = await tx.kysely
        .selectFrom('agents')
        .select('handle')
        .where('handle', '=', handle)
        .execute();
      if (row) holder = { kind: 'agent', ref: row.handle, publicRef: row.handle };
    } else if (sovereign && /^[0-9a-f-]{36}$/i.test(sovereign)) {
      const [row] = await tx.kysely
        .selectFrom('sovereigns')
        .select(['id', 'tag'])
        .where('id', '=', sovereign)
        .execute();
      if (row) holder = { kind: 'sovereign', ref: row.id, publicRef: row.tag };
    }
    if (typeof metadata.text === 'string') detail = { text: metadata.text.slice(0, 280) };
    if (metadata.listed === 'true') detail = { ...detail, listed: true };
  }
  if (!holder) return 'no_holder';
  const amount = Number.isSafeInteger(Number(session.amount_total))
    ? Number(session.amount_total)
    : (intent?.amount_cents ?? 0);
  const currency = (str(session.currency, 10) ?? intent?.currency ?? 'usd').toLowerCase();
  const paymentId = newId('pay', now);
  await tx.query(
    `insert into treasury_payments (id, event_id, intent_id, purpose, holder_kind, holder_ref, amount_cents, currency, customer_id, received_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      paymentId,
      event.id,
      intent?.id ?? null,
      purpose,
      holder.kind,
      holder.ref,
      amount,
      currency,
      str(session.customer, 255) ?? null,
      now.toISOString(),
    ],
  );
  if (intent)
    await tx.query(`update treasury_intents set status = 'paid', paid_at = $2 where id = $1`, [
      intent.id,
      now.toISOString(),
    ]);
  if (purpose === 'oracle') {
    const n = Math.max(uses, 1);
    await tx.query(
      `insert into treasury_entitlements (id, holder_kind, holder_ref, capability, uses_total, uses_left, payment_id, granted_at) values ($1, $2, $3, 'oracle', $4, $4, $5, $6)`,
      [newId('ent', now), holder.kind, holder.ref, n, paymentId, now.toISOString()],
    );
  } else if (purpose === 'inscription') {
    const text =
      typeof detail.text === 'string' && detail.text.trim() ? detail.text.trim().slice(0, 280) : null;
    if (text) {
      await tx.query(
        'insert into treasury_inscriptions (id, payment_id, body, public_ref, inscribed_at) values ($1, $2, $3, $4, $5)',
        [newId('ins', now), paymentId, text, publicRefOf(holder), now.toISOString()],
      );
    }
  }
  if (purpose === 'patronage' || purpose === 'covenant' || purpose === 'fund_evolution') {
    // Patronage units: one per whole currency unit paid. Listing is the patron's own choice.
    await tx.query(
      `insert into treasury_patrons (holder_kind, holder_ref, public_ref, listed, units, since) values ($1, $2, $3, $4, $5, $6)
       on conflict (holder_kind, holder_ref) do update set units = treasury_patrons.units + excluded.units, listed = treasury_patrons.listed or excluded.listed`,
      [
        holder.kind,
        holder.ref,
        holder.publicRef,
        detail.listed === true,
        Math.max(Math.floor(amount / 100), 1),
        now.toISOString(),
      ],
    );
  }
  await recordReceipt(tx, { step: 'treasury.payment', subject: `payment:${paymentId}`, at: now });
  return `applied_${purpose}` as const;
}
