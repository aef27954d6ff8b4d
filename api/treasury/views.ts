/**
 * The treasury's read views: entitlements, usage and sessions of a holder, strategies, the treasury,
 * equity and inscriptions (the listed patrons: patrons.ts).
 */
import type { AppContext } from '../context.ts';
import { Refusal } from '../../shared/errors.ts';
import {
  projectEquity,
  type EquityRecord,
  type EquityView,
} from '../../shared/boundaries/projectors/treasury.ts';
import { treasuryConfig } from './config.ts';
import { stripeConfigured } from './stripe-client.ts';
import { type Holder } from './service.ts';
import { sql } from 'kysely';
import { constant } from '../db/kysely.ts';
import { splitKey, talliesUnder, keptValue } from '../db/tallies.ts';
import type { RowOf } from '../db/rows.ts';
import { decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import type { TreasuryInscription } from './entities.ts';

export async function entitlementsOf(ctx: AppContext, holder: Holder) {
  const rows = await ctx.db.kysely
    .selectFrom('treasury_entitlements')
    .select(['id', 'capability', 'uses_total', 'uses_left', 'granted_at'])
    .where('holder_kind', '=', holder.kind)
    .where('holder_ref', '=', holder.ref)
    .orderBy('granted_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    capability: row.capability,
    uses_total: row.uses_total,
    uses_left: row.uses_left,
    granted_at: new Date(row.granted_at).toISOString(),
  }));
}

export async function usageOf(ctx: AppContext, holder: Holder) {
  const entitlements = (await entitlementsOf(ctx, holder)).filter((e) => e.capability === 'oracle');
  const reports = await ctx.db.kysely
    .selectFrom('oracle_reports')
    .select(['id', 'created_at', 'receipt_id', 'report'])
    .where('holder_kind', '=', holder.kind)
    .where('holder_ref', '=', holder.ref)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(constant(50))
    .execute();
  const total = entitlements.reduce((sum, e) => sum + e.uses_total, 0);
  const left = entitlements.reduce((sum, e) => sum + e.uses_left, 0);
  return {
    ok: true as const,
    uses_total: total,
    uses_left: left,
    uses_consumed: total - left,
    reports: reports.map((row) => ({
      id: row.id,
      created_at: new Date(row.created_at).toISOString(),
      receipt_id: row.receipt_id,
      report: row.report,
    })),
  };
}

export async function sessionOf(ctx: AppContext, holder: Holder, id: string | undefined) {
  const intents = ctx.db.kysely
    .selectFrom('treasury_intents')
    .select(['id', 'purpose', 'status', 'amount_cents', 'currency', 'created_at', 'paid_at'])
    .where('holder_kind', '=', holder.kind)
    .where('holder_ref', '=', holder.ref);
  const rows = await (id === undefined ? intents : intents.where('id', '=', id))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(constant(20))
    .execute();
  if (id && rows.length === 0) throw new Refusal('not_found');
  return rows.map((row) => ({
    intent: row.id,
    purpose: row.purpose,
    status: row.status,
    amount: row.amount_cents,
    currency: row.currency,
    created_at: new Date(row.created_at).toISOString(),
    paid_at: row.paid_at ? new Date(row.paid_at).toISOString() : null,
  }));
}

export async function strategiesView(ctx: AppContext) {
  const rows = await ctx.db.kysely.selectFrom('treasury_strategies').selectAll().orderBy('name').execute();
  const dayStart = `${ctx.clock.now().toISOString().slice(0, 10)}T00:00:00.000Z`;
  const spent = await ctx.db.kysely
    .selectFrom('treasury_authorizations')
    .select((eb) => ['strategy', eb.fn.sum<number>('amount_cents').as('total')])
    // `where approved`, not `approved = $1`: the predicate of the partial index treasury_authorizations_day.
    .where(sql.ref<boolean>('approved'))
    .where('decided_at', '>=', dayStart)
    .groupBy('strategy')
    .execute();
  return rows.map((row) => ({
    name: row.name,
    category: row.category,
    description: row.description,
    currency: row.currency,
    per_authorization_limit: row.per_authorization_cents,
    daily_limit: row.daily_cents,
    approved_today: spent.find((s) => s.strategy === row.name)?.total ?? 0,
  }));
}

/** `<prefix><currency>:<name>` tallies as rows (a currency is three letters, a name may hold `:`). */
async function keptByCurrency(ctx: AppContext, sum: string, count: string) {
  const [sums, counts] = await Promise.all([talliesUnder(ctx.db, sum), talliesUnder(ctx.db, count)]);
  return sums.map(({ key, value }) => {
    const [currency, name] = splitKey(key);
    return { currency, name, total: value, n: keptValue(counts, key) };
  });
}

const byNameThenCurrency = (a: { name: string; currency: string }, b: { name: string; currency: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0;

/**
 * Income by purpose and approved spending by category, from the tallies the payments' and
 * authorizations' triggers keep (migration 0086): a few rows, however many payments there were.
 */
export async function treasuryView(ctx: AppContext) {
  const [paid, approved, strategies, categories] = await Promise.all([
    keptByCurrency(ctx, 'treasury_income:', 'treasury_payments:'),
    keptByCurrency(ctx, 'treasury_spent:', 'treasury_authorizations:'),
    strategiesView(ctx),
    ctx.db.kysely.selectFrom('treasury_strategies').select(['name', 'category']).execute(),
  ]);
  const income = paid.map((r) => ({ ...r, purpose: r.name })).sort(byNameThenCurrency);
  // An approval without a strategy (or of one no longer kept) is spending still, uncategorised.
  const spent = new Map<string, { name: string; currency: string; total: number; n: number }>();
  for (const r of approved) {
    const name = categories.find((c) => c.name === r.name)?.category ?? 'uncategorised';
    const at = spent.get(`${name}\u0000${r.currency}`) ?? { name, currency: r.currency, total: 0, n: 0 };
    spent.set(`${name}\u0000${r.currency}`, { ...at, total: at.total + r.total, n: at.n + r.n });
  }
  const spending = [...spent.values()].map((r) => ({ ...r, category: r.name })).sort(byNameThenCurrency);
  const currencies = [
    ...new Set([
      ...income.map((r) => r.currency),
      ...spending.map((r) => r.currency),
      treasuryConfig(ctx.config).currency,
    ]),
  ].sort();
  const balance = currencies.map((currency) => {
    const inc = income.filter((r) => r.currency === currency).reduce((s, r) => s + r.total, 0);
    const out = spending.filter((r) => r.currency === currency).reduce((s, r) => s + r.total, 0);
    return { currency, income: inc, spending: out, balance: inc - out };
  });
  return {
    ok: true as const,
    as_of: ctx.clock.now().toISOString(),
    units: 'minor units (cents) of each currency',
    balance,
    income_by_purpose: income.map((r) => ({
      purpose: r.purpose,
      currency: r.currency,
      amount: r.total,
      payments: r.n,
    })),
    spending_by_category: spending.map((r) => ({
      category: r.category,
      currency: r.currency,
      amount: r.total,
      authorizations: r.n,
    })),
    strategies,
    provider: { configured: stripeConfigured(treasuryConfig(ctx.config)) },
  };
}

/**
 * Patronage units as the database keeps them: how many patrons hold each number of units
 * (treasury_units, migration 0090), and the top holder's raw id through the index on units (only
 * ever read through projectEquity). As many rows as there are distinct holdings, however many
 * patrons there are.
 */
export async function equityRecord(ctx: AppContext): Promise<EquityRecord> {
  const [distribution, top] = await Promise.all([
    ctx.db.kysely
      .selectFrom('treasury_units')
      .select(['units', 'holders'])
      .where('holders', '>', constant(0))
      .where('units', '>', constant(0))
      .execute(),
    ctx.db.kysely
      .selectFrom('treasury_patrons')
      .select(['holder_kind', 'holder_ref'])
      .where('units', '>', constant(0))
      .orderBy('units', 'desc')
      .limit(constant(1))
      .executeTakeFirst(),
  ]);
  return {
    total_units: distribution.reduce((sum, d) => sum + d.units * d.holders, 0),
    distribution,
    top_holder_id: top ? `${top.holder_kind}:${top.holder_ref}` : null,
    as_of: ctx.clock.now().toISOString(),
  };
}

/** Patronage units by holder, through equity_projection (no holder id leaves). */
export async function equityView(ctx: AppContext): Promise<EquityView> {
  return projectEquity(await equityRecord(ctx));
}

/**
 * Inscriptions, oldest first, a page at a time. The key is the id alone: an inscription's id is
 * the ULID of the moment it was inscribed (`newId('ins', now)`, api/treasury/webhooks.ts, the same
 * `now` as inscribed_at), so id order is inscribed_at order with the id breaking ties, read along
 * the primary key.
 */
export const INSCRIPTION_ORDER: KeyOrder = {
  path: '/api/inscriptions',
  columns: [{ sql: 'id', type: 'text' }],
  order: 'asc',
};

export async function inscriptionsView(ctx: AppContext, query: { limit: number; after?: string }) {
  const cursor = decodeCursor(INSCRIPTION_ORDER, query.after);
  const key = keyClause(INSCRIPTION_ORDER, cursor, 2);
  const rows = await ctx.db.query<
    Pick<RowOf<typeof TreasuryInscription>, 'id' | 'body' | 'public_ref' | 'inscribed_at'>
  >(
    `select id, body, public_ref, inscribed_at from treasury_inscriptions
      where ${key.where} order by ${key.orderBy} limit $1`,
    [query.limit + 1, ...key.params],
  );
  const page = pageOf(rows, query.limit, cursor, (row) => [row.id]);
  const links = { limit: query.limit };
  return {
    ok: true as const,
    note: 'Inscriptions are paid, permanent entries outside the 500-row window.',
    inscriptions: page.rows.map((row) => ({
      id: row.id,
      text: row.body,
      author: row.public_ref,
      inscribed_at: new Date(row.inscribed_at).toISOString(),
    })),
    ...pageFields(INSCRIPTION_ORDER, page, query.limit, links),
  };
}
