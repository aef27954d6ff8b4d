import { ulid } from 'ulid';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import { kAnonymousCount } from '../../shared/boundaries/k-anonymity.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import { projectEquity, type EquityRecord, type EquityView } from '../../shared/boundaries/projectors/treasury.ts';
import { oracleQuote } from '../../shared/treasury/quote.ts';
import type { Speaker } from '../agents/speaker.ts';
import { treasuryConfig } from './config.ts';
import { createCheckoutSession, paymentsOff, stripeConfigured } from './stripe-client.ts';

export type Purpose = 'oracle' | 'patronage' | 'covenant' | 'fund_evolution' | 'inscription';

/** Who pays or holds: a signed-in sovereign, or an agent that proved its handle (api/agents/speaker.ts). Raw refs stay inside. */
export type Holder = Speaker;

export function requireHolder(holder: Holder | undefined): Holder {
  if (!holder) throw new Refusal('identity_required', {}, 'Sign in (cross at /initiate or return at /return), or name your agent handle with its continuity proof.');
  return holder;
}

const publicRefOf = (holder: { kind: string; publicRef: string }) =>
  projectActorRef({ actor_id: 'withheld', kind: holder.kind === 'agent' ? 'agent' : 'sovereign', tag: holder.publicRef, handle: holder.publicRef }).ref;

export function currentQuote(ctx: AppContext) {
  const cfg = treasuryConfig(ctx.config);
  return oracleQuote(cfg.oraclePriceCents, cfg.currency);
}

/** GET /api/oracle and MCP civitas_oracle_quote: what a report covers, its quote and its doors. Never a purchase. */
export function oracleOffer(ctx: AppContext) {
  return {
    ok: true as const,
    offers: 'A deep report over the public record, computed from stored public data only.',
    covers: ['imprint kinds', 'authors by kind (humans and agents apart, k-anonymous)', 'threads', 'receipts by step', 'window statistics and intake of the last 7 days'],
    quote: currentQuote(ctx),
    provider: { configured: Boolean(treasuryConfig(ctx.config).stripeSecretKey) },
    doors: { run: 'POST /api/oracle', buy: 'POST /api/oracle/buy', usage: 'GET /api/oracle/usage' },
  };
}

// ---------------------------------------------------------------- checkout intents

const PRODUCT_NAMES: Record<Purpose, string> = {
  oracle: 'civitas Oracle report',
  patronage: 'civitas patronage',
  covenant: 'civitas covenant',
  fund_evolution: 'civitas evolution funding',
  inscription: 'civitas inscription',
};

/**
 * Records a checkout intent and opens a Stripe Checkout Session for it. Without a configured
 * Stripe key it refuses 503 before recording anything. Never charges: the provider charges only
 * when the person completes the hosted checkout; the webhook applies the result.
 */
export async function startCheckout(ctx: AppContext, input: {
  purpose: Purpose; holder: Holder; amountCents: number; uses?: number; detail?: Record<string, unknown>; returnPath: string;
}) {
  const cfg = treasuryConfig(ctx.config);
  if (!stripeConfigured(cfg)) throw paymentsOff('checkout');
  const id = `tin_${ulid(ctx.clock.now().getTime())}`;
  const origin = ctx.config.origin;
  const session = await createCheckoutSession(cfg, {
    intentId: id,
    name: PRODUCT_NAMES[input.purpose],
    amountCents: input.amountCents,
    currency: cfg.currency,
    successUrl: `${origin}${input.returnPath}?checkout=${id}`,
    cancelUrl: `${origin}${input.returnPath}?checkout=cancelled`,
  });
  const now = ctx.clock.now();
  const receipt = await ctx.db.transaction(async (tx) => {
    await tx.query(
      `insert into treasury_intents (id, purpose, holder_kind, holder_ref, public_ref, amount_cents, currency, uses, detail, checkout_session_id, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)`,
      [id, input.purpose, input.holder.kind, input.holder.ref, input.holder.publicRef, input.amountCents, cfg.currency, input.uses ?? 0, JSON.stringify(input.detail ?? {}), session.id, now.toISOString()],
    );
    return recordReceipt(tx, { step: 'treasury.checkout', subject: `intent:${id}`, at: now });
  });
  return {
    ok: true as const,
    intent: id,
    purpose: input.purpose,
    amount: input.amountCents,
    currency: cfg.currency,
    checkout_url: session.url,
    charged: false as const,
    note: 'Nothing is charged until you complete the checkout yourself.',
    receipt_id: receipt.id,
  };
}

// ---------------------------------------------------------------- webhook events (applied once)

interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

export function asStripeEvent(value: unknown): StripeEvent | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const event = value as Record<string, unknown>;
  const data = event.data as Record<string, unknown> | undefined;
  if (typeof event.id !== 'string' || !/^[A-Za-z0-9_]{1,255}$/.test(event.id) || typeof event.type !== 'string' || event.type.length > 200) return undefined;
  if (!data || typeof data.object !== 'object' || data.object === null) return undefined;
  return { id: event.id, type: event.type, data: { object: data.object as Record<string, unknown> } };
}

const str = (value: unknown, max = 500) => (typeof value === 'string' && value.length <= max ? value : undefined);

/** Checkout events that carry a session whose payment may settle later (asynchronous methods). */
const CHECKOUT_EVENTS = ['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed'] as const;

/**
 * Applies one verified event at most once: the event id is inserted into treasury_processed_events
 * in the same transaction as its effects; a replay (sequential or concurrent) finds the key taken.
 * An event that found the payment still pending (`awaiting_payment`) is not consumed for good: a
 * redelivery is looked at again, and the later `async_payment_succeeded` (its own event) applies.
 */
export async function applyStripeEvent(ctx: AppContext, event: StripeEvent) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [fresh] = await tx.query<{ event_id: string }>(
      `insert into treasury_processed_events (event_id, type, outcome, processed_at) values ($1, $2, 'pending', $3)
       on conflict (event_id) do update set processed_at = excluded.processed_at
         where treasury_processed_events.outcome = 'awaiting_payment'
       returning event_id`,
      [event.id, event.type, now.toISOString()],
    );
    if (!fresh) return { ok: true as const, received: true as const, duplicate: true, outcome: 'already_applied' };
    const outcome = (CHECKOUT_EVENTS as readonly string[]).includes(event.type) ? await applyCheckoutEvent(tx, event, now) : 'ignored';
    await tx.query('update treasury_processed_events set outcome = $2 where event_id = $1', [event.id, outcome]);
    return { ok: true as const, received: true as const, duplicate: false, outcome };
  });
}

/** The intent a checkout session names (metadata.intent, else client_reference_id), locked. */
async function intentOfSession(tx: Sql, session: Record<string, unknown>) {
  const metadata = (session.metadata && typeof session.metadata === 'object' ? session.metadata : {}) as Record<string, unknown>;
  const intentId = str(metadata.intent, 40) ?? str(session.client_reference_id, 40);
  if (!intentId) return undefined;
  const [intent] = await tx.query<{ id: string; status: string }>('select id, status from treasury_intents where id = $1 for update', [intentId]);
  return intent;
}

/**
 * completed + paid, or async_payment_succeeded → the payment applies. completed but unpaid → the
 * intent waits (`awaiting_payment`), nothing is granted. async_payment_failed → the intent records
 * `payment_failed`, nothing is granted (a new checkout can try again).
 */
async function applyCheckoutEvent(tx: Sql, event: StripeEvent, now: Date): Promise<string> {
  const session = event.data.object;
  const failed = event.type === 'checkout.session.async_payment_failed';
  const unpaid = event.type === 'checkout.session.completed' && session.payment_status !== undefined && session.payment_status !== 'paid';
  if (!failed && !unpaid) return applyCheckoutCompleted(tx, event, now);
  const intent = await intentOfSession(tx, session);
  if (intent && intent.status !== 'paid') {
    await tx.query('update treasury_intents set status = $2 where id = $1', [intent.id, failed ? 'payment_failed' : 'awaiting_payment']);
  }
  return failed ? 'payment_failed' : 'awaiting_payment';
}

async function applyCheckoutCompleted(tx: Sql, event: StripeEvent, now: Date): Promise<string> {
  const session = event.data.object;
  const metadata = (session.metadata && typeof session.metadata === 'object' ? session.metadata : {}) as Record<string, unknown>;
  const intentId = str(metadata.intent, 40) ?? str(session.client_reference_id, 40);
  const [intent] = intentId
    ? await tx.query<{ id: string; purpose: Purpose; holder_kind: 'sovereign' | 'agent'; holder_ref: string; public_ref: string; amount_cents: string; currency: string; uses: number; detail: Record<string, unknown>; status: string }>(
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
    purpose = (['oracle', 'patronage', 'covenant', 'fund_evolution', 'inscription'] as const).find((p) => p === metadata.purpose) ?? 'oracle';
    uses = Math.min(Math.max(Number.parseInt(String(metadata.uses ?? '1'), 10) || 1, 1), 100);
    const handle = str(metadata.agent, 63)?.toLowerCase();
    const sovereign = str(metadata.sovereign, 36);
    if (handle) {
      const [row] = await tx.query<{ handle: string }>('select handle from agents where handle = $1', [handle]);
      if (row) holder = { kind: 'agent', ref: row.handle, publicRef: row.handle };
    } else if (sovereign && /^[0-9a-f-]{36}$/i.test(sovereign)) {
      const [row] = await tx.query<{ id: string; tag: string }>('select id, tag from sovereigns where id = $1', [sovereign]);
      if (row) holder = { kind: 'sovereign', ref: row.id, publicRef: row.tag };
    }
    if (typeof metadata.text === 'string') detail = { text: metadata.text.slice(0, 280) };
    if (metadata.listed === 'true') detail = { ...detail, listed: true };
  }
  if (!holder) return 'no_holder';
  const amount = Number.isSafeInteger(Number(session.amount_total)) ? Number(session.amount_total) : Number(intent?.amount_cents ?? 0);
  const currency = (str(session.currency, 10) ?? intent?.currency ?? 'usd').toLowerCase();
  const paymentId = `pay_${ulid(now.getTime())}`;
  await tx.query(
    `insert into treasury_payments (id, event_id, intent_id, purpose, holder_kind, holder_ref, amount_cents, currency, customer_id, received_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [paymentId, event.id, intent?.id ?? null, purpose, holder.kind, holder.ref, amount, currency, str(session.customer, 255) ?? null, now.toISOString()],
  );
  if (intent) await tx.query(`update treasury_intents set status = 'paid', paid_at = $2 where id = $1`, [intent.id, now.toISOString()]);
  if (purpose === 'oracle') {
    const n = Math.max(uses, 1);
    await tx.query(
      `insert into treasury_entitlements (id, holder_kind, holder_ref, capability, uses_total, uses_left, payment_id, granted_at) values ($1, $2, $3, 'oracle', $4, $4, $5, $6)`,
      [`ent_${ulid(now.getTime())}`, holder.kind, holder.ref, n, paymentId, now.toISOString()],
    );
  } else if (purpose === 'inscription') {
    const text = typeof detail.text === 'string' && detail.text.trim() ? detail.text.trim().slice(0, 280) : null;
    if (text) {
      await tx.query('insert into treasury_inscriptions (id, payment_id, body, public_ref, inscribed_at) values ($1, $2, $3, $4, $5)', [
        `ins_${ulid(now.getTime())}`, paymentId, text, publicRefOf(holder), now.toISOString(),
      ]);
    }
  }
  if (purpose === 'patronage' || purpose === 'covenant' || purpose === 'fund_evolution') {
    // Patronage units: one per whole currency unit paid. Listing is the patron's own choice.
    await tx.query(
      `insert into treasury_patrons (holder_kind, holder_ref, public_ref, listed, units, since) values ($1, $2, $3, $4, $5, $6)
       on conflict (holder_kind, holder_ref) do update set units = treasury_patrons.units + excluded.units, listed = treasury_patrons.listed or excluded.listed`,
      [holder.kind, holder.ref, holder.publicRef, detail.listed === true, Math.max(Math.floor(amount / 100), 1), now.toISOString()],
    );
  }
  await recordReceipt(tx, { step: 'treasury.payment', subject: `payment:${paymentId}`, at: now });
  return `applied_${purpose}`;
}

// ---------------------------------------------------------------- issuing authorizations

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
  if (!authId) throw new Refusal('invalid_request', { issues: [{ path: 'data.object.id', message: 'An authorization id is required.' }] });
  const pending = (auth.pending_request && typeof auth.pending_request === 'object' ? auth.pending_request : {}) as Record<string, unknown>;
  const amount = Number(pending.amount ?? auth.amount);
  const currency = (str(pending.currency, 10) ?? str(auth.currency, 10) ?? '').toLowerCase();
  const card = (auth.card && typeof auth.card === 'object' ? auth.card : {}) as Record<string, unknown>;
  const cardMeta = (card.metadata && typeof card.metadata === 'object' ? card.metadata : {}) as Record<string, unknown>;
  const strategyName = str(cardMeta.strategy, 100) ?? 'operations';
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [strategy] = await tx.query<{ name: string; currency: string; per_authorization_cents: string; daily_cents: string }>(
      'select * from treasury_strategies where name = $1 for update',
      [strategyName],
    );
    const [previous] = await tx.query<{ approved: boolean; reason: string }>('select approved, reason from treasury_authorizations where authorization_id = $1', [authId]);
    if (previous) return { approved: previous.approved, reason: previous.reason, duplicate: true };
    let approved = false;
    let reason: string;
    if (!strategy) reason = 'unknown_strategy';
    else if (!Number.isSafeInteger(amount) || amount <= 0) reason = 'invalid_amount';
    else if (currency !== strategy.currency) reason = 'currency_mismatch';
    else if (amount > Number(strategy.per_authorization_cents)) reason = 'over_per_authorization_limit';
    else {
      const dayStart = `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;
      const [spent] = await tx.query<{ total: string | null }>(
        'select coalesce(sum(amount_cents), 0) as total from treasury_authorizations where approved and strategy = $1 and decided_at >= $2',
        [strategy.name, dayStart],
      );
      if (Number(spent.total) + amount > Number(strategy.daily_cents)) reason = 'over_daily_limit';
      else {
        approved = true;
        reason = 'within_limits';
      }
    }
    await tx.query(
      `insert into treasury_authorizations (authorization_id, event_id, strategy, amount_cents, currency, approved, reason, decided_at) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [authId, event.id, strategy ? strategy.name : null, Number.isSafeInteger(amount) ? amount : 0, currency || 'unknown', approved, reason, now.toISOString()],
    );
    await recordReceipt(tx, { step: 'treasury.authorization', subject: `authorization:${approved ? 'approved' : 'declined'}`, at: now });
    return { approved, reason, duplicate: false };
  });
}

// ---------------------------------------------------------------- the Oracle

/** The deep report: aggregates of the public record only (no held content, no actor ids). */
export async function oracleReport(sql: Sql, now: Date) {
  const [kinds, authors, threads, receipts, window, days] = await Promise.all([
    sql.query<{ kind: string; n: string }>(`select kind, count(*) as n from imprints where not held and body is not null group by kind order by kind`),
    sql.query<{ author_kind: string; authors: string; imprints: string }>(
      `select author_kind, count(distinct author_ref) as authors, count(*) as imprints from imprints where not held and body is not null group by author_kind order by author_kind`,
    ),
    sql.query<{ threads: string; replies: string; largest: string | null }>(
      `select count(*) as threads, coalesce(sum(n), 0) as replies, max(n) as largest
         from (select reply_to, count(*) as n from imprints where reply_to is not null and not held and body is not null group by reply_to) t`,
    ),
    sql.query<{ step: string; n: string }>(`select step, count(*) as n from receipts group by step order by step`),
    sql.query<{ retained: string; lifetime: string; oldest: string | null; newest: string | null }>(
      `select count(*) filter (where body is not null and not held) as retained, (select value from record_counter where id = 1) as lifetime,
              min(sequence) filter (where body is not null) as oldest, max(sequence) as newest from imprints`,
    ),
    sql.query<{ day: string; n: string }>(
      `select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, count(*) as n from imprints
        where not held and created_at >= $1 group by 1 order by 1`,
      [new Date(now.getTime() - 7 * 86_400_000).toISOString()],
    ),
  ]);
  const byKind = (kind: string) => authors.find((row) => row.author_kind === kind);
  return {
    generated_at: now.toISOString(),
    source: 'public record only (retained, non-held imprints and receipt steps)',
    kinds: Object.fromEntries(kinds.map((row) => [row.kind, Number(row.n)])),
    // Humans and agents are two kinds, never summed; author counts are k-anonymous.
    authors_by_kind: {
      agents: { authors: kAnonymousCount(Number(byKind('agent')?.authors ?? 0)), imprints: Number(byKind('agent')?.imprints ?? 0) },
      humans: { authors: kAnonymousCount(Number(byKind('sovereign')?.authors ?? 0)), imprints: Number(byKind('sovereign')?.imprints ?? 0) },
    },
    threads: { threads: Number(threads[0]?.threads ?? 0), replies: Number(threads[0]?.replies ?? 0), largest: Number(threads[0]?.largest ?? 0) },
    receipts_by_step: Object.fromEntries(receipts.map((row) => [row.step, Number(row.n)])),
    window: {
      retained: Number(window[0]?.retained ?? 0),
      lifetime: Number(window[0]?.lifetime ?? 0),
      oldest_retained_sequence: window[0]?.oldest === null || window[0]?.oldest === undefined ? null : Number(window[0].oldest),
      newest_sequence: window[0]?.newest === null || window[0]?.newest === undefined ? null : Number(window[0].newest),
      intake_last_7_days: days.map((row) => ({ day: row.day, imprints: Number(row.n) })),
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
    const id = `orc_${ulid(now.getTime())}`;
    const report = await oracleReport(tx, now);
    const receipt = await recordReceipt(tx, { step: 'treasury.oracle', subject: `oracle:${id}`, at: now });
    await tx.query(
      'insert into oracle_reports (id, holder_kind, holder_ref, entitlement_id, report, receipt_id, created_at) values ($1, $2, $3, $4, $5::jsonb, $6, $7)',
      [id, holder.kind, holder.ref, entitlement.id, JSON.stringify(report), receipt.id, now.toISOString()],
    );
    return { ok: true as const, report_id: id, uses_left: Number(entitlement.uses_left), receipt_id: receipt.id, report };
  });
}

// ---------------------------------------------------------------- views

export async function entitlementsOf(ctx: AppContext, holder: Holder) {
  const rows = await ctx.db.query<{ id: string; capability: string; uses_total: number; uses_left: number; granted_at: Date | string }>(
    'select id, capability, uses_total, uses_left, granted_at from treasury_entitlements where holder_kind = $1 and holder_ref = $2 order by granted_at desc, id desc',
    [holder.kind, holder.ref],
  );
  return rows.map((row) => ({ id: row.id, capability: row.capability, uses_total: Number(row.uses_total), uses_left: Number(row.uses_left), granted_at: new Date(row.granted_at).toISOString() }));
}

export async function usageOf(ctx: AppContext, holder: Holder) {
  const entitlements = (await entitlementsOf(ctx, holder)).filter((e) => e.capability === 'oracle');
  const reports = await ctx.db.query<{ id: string; created_at: Date | string; receipt_id: string; report: unknown }>(
    'select id, created_at, receipt_id, report from oracle_reports where holder_kind = $1 and holder_ref = $2 order by created_at desc, id desc limit 50',
    [holder.kind, holder.ref],
  );
  const total = entitlements.reduce((sum, e) => sum + e.uses_total, 0);
  const left = entitlements.reduce((sum, e) => sum + e.uses_left, 0);
  return {
    ok: true as const,
    uses_total: total,
    uses_left: left,
    uses_consumed: total - left,
    reports: reports.map((row) => ({ id: row.id, created_at: new Date(row.created_at).toISOString(), receipt_id: row.receipt_id, report: row.report })),
  };
}

export async function sessionOf(ctx: AppContext, holder: Holder, id: string | undefined) {
  const rows = await ctx.db.query<{ id: string; purpose: string; status: string; amount_cents: string; currency: string; created_at: Date | string; paid_at: Date | string | null }>(
    `select id, purpose, status, amount_cents, currency, created_at, paid_at from treasury_intents
      where holder_kind = $1 and holder_ref = $2 and ($3::text is null or id = $3) order by created_at desc, id desc limit 20`,
    [holder.kind, holder.ref, id ?? null],
  );
  if (id && rows.length === 0) throw new Refusal('not_found');
  return rows.map((row) => ({
    intent: row.id,
    purpose: row.purpose,
    status: row.status,
    amount: Number(row.amount_cents),
    currency: row.currency,
    created_at: new Date(row.created_at).toISOString(),
    paid_at: row.paid_at ? new Date(row.paid_at).toISOString() : null,
  }));
}

export async function strategiesView(ctx: AppContext) {
  const rows = await ctx.db.query<{ name: string; category: string; description: string; currency: string; per_authorization_cents: string; daily_cents: string }>(
    'select * from treasury_strategies order by name',
  );
  const dayStart = `${ctx.clock.now().toISOString().slice(0, 10)}T00:00:00.000Z`;
  const spent = await ctx.db.query<{ strategy: string; total: string }>(
    'select strategy, sum(amount_cents) as total from treasury_authorizations where approved and decided_at >= $1 group by strategy',
    [dayStart],
  );
  return rows.map((row) => ({
    name: row.name,
    category: row.category,
    description: row.description,
    currency: row.currency,
    per_authorization_limit: Number(row.per_authorization_cents),
    daily_limit: Number(row.daily_cents),
    approved_today: Number(spent.find((s) => s.strategy === row.name)?.total ?? 0),
  }));
}

export async function treasuryView(ctx: AppContext) {
  const [income, spending, strategies] = await Promise.all([
    ctx.db.query<{ purpose: string; currency: string; total: string; n: string }>(
      'select purpose, currency, sum(amount_cents) as total, count(*) as n from treasury_payments group by purpose, currency order by purpose, currency',
    ),
    ctx.db.query<{ category: string; currency: string; total: string; n: string }>(
      `select coalesce(s.category, 'uncategorised') as category, a.currency, sum(a.amount_cents) as total, count(*) as n
         from treasury_authorizations a left join treasury_strategies s on s.name = a.strategy where a.approved group by 1, 2 order by 1, 2`,
    ),
    strategiesView(ctx),
  ]);
  const currencies = [...new Set([...income.map((r) => r.currency), ...spending.map((r) => r.currency), treasuryConfig(ctx.config).currency])].sort();
  const balance = currencies.map((currency) => {
    const inc = income.filter((r) => r.currency === currency).reduce((s, r) => s + Number(r.total), 0);
    const out = spending.filter((r) => r.currency === currency).reduce((s, r) => s + Number(r.total), 0);
    return { currency, income: inc, spending: out, balance: inc - out };
  });
  return {
    ok: true as const,
    as_of: ctx.clock.now().toISOString(),
    units: 'minor units (cents) of each currency',
    balance,
    income_by_purpose: income.map((r) => ({ purpose: r.purpose, currency: r.currency, amount: Number(r.total), payments: Number(r.n) })),
    spending_by_category: spending.map((r) => ({ category: r.category, currency: r.currency, amount: Number(r.total), authorizations: Number(r.n) })),
    strategies,
    provider: { configured: stripeConfigured(treasuryConfig(ctx.config)) },
  };
}

/** Patronage units by holder as stored (raw holder ids: only ever read through projectEquity). */
export async function equityRecord(ctx: AppContext): Promise<EquityRecord> {
  const rows = await ctx.db.query<{ holder_kind: string; holder_ref: string; units: string }>('select holder_kind, holder_ref, units from treasury_patrons where units > 0');
  const holders = rows.map((row) => ({ holder_id: `${row.holder_kind}:${row.holder_ref}`, units: Number(row.units) }));
  const top = holders.reduce<{ holder_id: string; units: number } | null>((best, h) => (!best || h.units > best.units ? h : best), null);
  return {
    total_units: holders.reduce((s, h) => s + h.units, 0),
    holders,
    top_holder_id: top?.holder_id ?? null,
    as_of: ctx.clock.now().toISOString(),
  };
}

/** Patronage units by holder, through equity_projection (no holder id leaves). */
export async function equityView(ctx: AppContext): Promise<EquityView> {
  return projectEquity(await equityRecord(ctx));
}

export async function patronsView(ctx: AppContext) {
  const [listed, counts] = await Promise.all([
    ctx.db.query<{ holder_kind: 'agent' | 'sovereign'; holder_ref: string; public_ref: string; since: Date | string }>(
      'select holder_kind, holder_ref, public_ref, since from treasury_patrons where listed order by since, public_ref limit 500',
    ),
    ctx.db.query<{ holder_kind: string; n: string }>('select holder_kind, count(*) as n from treasury_patrons group by holder_kind'),
  ]);
  const count = (kind: string) => kAnonymousCount(Number(counts.find((c) => c.holder_kind === kind)?.n ?? 0));
  return {
    ok: true as const,
    counts: { humans: count('sovereign'), agents: count('agent') },
    listed: listed.map((row) => ({
      actor: projectActorRef({ actor_id: row.holder_ref, kind: row.holder_kind, tag: row.public_ref, handle: row.public_ref }),
      since: new Date(row.since).toISOString(),
    })),
  };
}

export async function inscriptionsView(ctx: AppContext) {
  const rows = await ctx.db.query<{ id: string; body: string; public_ref: string; inscribed_at: Date | string }>(
    'select id, body, public_ref, inscribed_at from treasury_inscriptions order by inscribed_at, id limit 1000',
  );
  return {
    ok: true as const,
    note: 'Inscriptions are paid, permanent entries outside the 500-row window.',
    inscriptions: rows.map((row) => ({ id: row.id, text: row.body, author: row.public_ref, inscribed_at: new Date(row.inscribed_at).toISOString() })),
  };
}
