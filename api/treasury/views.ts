/**
 * The treasury's read views: entitlements, usage and sessions of a holder, strategies, the treasury,
 * equity, patrons and inscriptions.
 */
import type { AppContext } from '../context.ts';
import { Refusal } from '../../shared/errors.ts';
import { kAnonymousCount } from '../../shared/boundaries/k-anonymity.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import {
  projectEquity,
  type EquityRecord,
  type EquityView,
} from '../../shared/boundaries/projectors/treasury.ts';
import { treasuryConfig } from './config.ts';
import { stripeConfigured } from './stripe-client.ts';
import { type Holder } from './service.ts';
import type { PURPOSES } from '../../shared/treasury/purposes.ts';
import type { INTENT_STATUSES } from '../../shared/treasury/holder-contract.ts';
import type { oracleReport } from './oracle.ts';

export async function entitlementsOf(ctx: AppContext, holder: Holder) {
  const rows = await ctx.db.query<{
    id: string;
    capability: string;
    uses_total: number;
    uses_left: number;
    granted_at: Date | string;
  }>(
    'select id, capability, uses_total, uses_left, granted_at from treasury_entitlements where holder_kind = $1 and holder_ref = $2 order by granted_at desc, id desc',
    [holder.kind, holder.ref],
  );
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
  // The report is stored as oracleReport wrote it (jsonb).
  const reports = await ctx.db.query<{
    id: string;
    created_at: Date | string;
    receipt_id: string;
    report: Awaited<ReturnType<typeof oracleReport>>;
  }>(
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
    reports: reports.map((row) => ({
      id: row.id,
      created_at: new Date(row.created_at).toISOString(),
      receipt_id: row.receipt_id,
      report: row.report,
    })),
  };
}

export async function sessionOf(ctx: AppContext, holder: Holder, id: string | undefined) {
  const rows = await ctx.db.query<{
    id: string;
    purpose: (typeof PURPOSES)[number];
    status: (typeof INTENT_STATUSES)[number];
    amount_cents: number;
    currency: string;
    created_at: Date | string;
    paid_at: Date | string | null;
  }>(
    `select id, purpose, status, amount_cents, currency, created_at, paid_at from treasury_intents
      where holder_kind = $1 and holder_ref = $2 and ($3::text is null or id = $3) order by created_at desc, id desc limit 20`,
    [holder.kind, holder.ref, id ?? null],
  );
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
  const rows = await ctx.db.query<{
    name: string;
    category: string;
    description: string;
    currency: string;
    per_authorization_cents: number;
    daily_cents: number;
  }>('select * from treasury_strategies order by name');
  const dayStart = `${ctx.clock.now().toISOString().slice(0, 10)}T00:00:00.000Z`;
  const spent = await ctx.db.query<{ strategy: string; total: number }>(
    'select strategy, sum(amount_cents) as total from treasury_authorizations where approved and decided_at >= $1 group by strategy',
    [dayStart],
  );
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

export async function treasuryView(ctx: AppContext) {
  const [income, spending, strategies] = await Promise.all([
    ctx.db.query<{ purpose: string; currency: string; total: number; n: number }>(
      'select purpose, currency, sum(amount_cents) as total, count(*) as n from treasury_payments group by purpose, currency order by purpose, currency',
    ),
    ctx.db.query<{ category: string; currency: string; total: number; n: number }>(
      `select coalesce(s.category, 'uncategorised') as category, a.currency, sum(a.amount_cents) as total, count(*) as n
         from treasury_authorizations a left join treasury_strategies s on s.name = a.strategy where a.approved group by 1, 2 order by 1, 2`,
    ),
    strategiesView(ctx),
  ]);
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

/** Patronage units by holder as stored (raw holder ids: only ever read through projectEquity). */
export async function equityRecord(ctx: AppContext): Promise<EquityRecord> {
  const rows = await ctx.db.query<{ holder_kind: string; holder_ref: string; units: number }>(
    'select holder_kind, holder_ref, units from treasury_patrons where units > 0',
  );
  const holders = rows.map((row) => ({
    holder_id: `${row.holder_kind}:${row.holder_ref}`,
    units: row.units,
  }));
  const top = holders.reduce<{ holder_id: string; units: number } | null>(
    (best, h) => (!best || h.units > best.units ? h : best),
    null,
  );
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
    ctx.db.query<{
      holder_kind: 'agent' | 'sovereign';
      holder_ref: string;
      public_ref: string;
      since: Date | string;
    }>(
      'select holder_kind, holder_ref, public_ref, since from treasury_patrons where listed order by since, public_ref limit 500',
    ),
    ctx.db.query<{ holder_kind: string; n: string }>(
      'select holder_kind, count(*) as n from treasury_patrons group by holder_kind',
    ),
  ]);
  const count = (kind: string) => kAnonymousCount(Number(counts.find((c) => c.holder_kind === kind)?.n ?? 0));
  return {
    ok: true as const,
    counts: { humans: count('sovereign'), agents: count('agent') },
    listed: listed.map((row) => ({
      actor: projectActorRef({
        actor_id: row.holder_ref,
        kind: row.holder_kind,
        tag: row.public_ref,
        handle: row.public_ref,
      }),
      since: new Date(row.since).toISOString(),
    })),
  };
}

export async function inscriptionsView(ctx: AppContext) {
  const rows = await ctx.db.query<{
    id: string;
    body: string;
    public_ref: string;
    inscribed_at: Date | string;
  }>(
    'select id, body, public_ref, inscribed_at from treasury_inscriptions order by inscribed_at, id limit 1000',
  );
  return {
    ok: true as const,
    note: 'Inscriptions are paid, permanent entries outside the 500-row window.',
    inscriptions: rows.map((row) => ({
      id: row.id,
      text: row.body,
      author: row.public_ref,
      inscribed_at: new Date(row.inscribed_at).toISOString(),
    })),
  };
}
