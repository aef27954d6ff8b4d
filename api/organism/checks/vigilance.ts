/**
 * Vigilance: the self-trials are watched. Each run of the verification job (`organism.vigilance`,
 * every minute, taken by one process under an advisory lock: knowledge.ts) records a watch pass
 * over the trials it kept; when a trial starts failing an alert is raised, when it passes again
 * the alert is cleared. Both moves record a receipt (`organism.alert.raised` / `.cleared`).
 */
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import { keptKnowledge } from './knowledge.ts';
import { one, type RowOf } from '../../db/rows.ts';
import type { VigilanceAlert, VigilanceWatch } from '../entities.ts';
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export const WATCHED = [
  {
    trial: 'record_window',
    watches: 'The Record keeps exactly min(lifetime, 500) bodies, all among the newest 500.',
  },
  { trial: 'gap_free_sequence', watches: 'Imprint numbers run 1..lifetime without a gap.' },
  { trial: 'anchor_chain', watches: 'The daily anchors chain and every receipt leaf recomputes.' },
  { trial: 'boundaries', watches: 'All 23 privacy boundaries are bound on their live probes.' },
  { trial: 'receipts', watches: 'Every imprint has its receipt.' },
] as const;

/**
 * GET /api/vigilance: the watches and alerts as the latest verification run left them, and what
 * that run's pass raised and cleared (the host: a first run's census, keptKnowledge).
 */
export async function vigilanceView(ctx: AppContext, host: CensusHost) {
  const kept = await keptKnowledge(ctx, host);
  const pass = kept.watch;
  const watches = await ctx.db.query<
    Pick<RowOf<typeof VigilanceWatch>, 'trial' | 'passed' | 'since' | 'checked_at'>
  >(
    `select trial, passed, to_char(since at time zone 'UTC', ${ISO}) as since, to_char(checked_at at time zone 'UTC', ${ISO}) as checked_at from vigilance_watches`,
  );
  const alerts = await ctx.db.query<
    Pick<RowOf<typeof VigilanceAlert>, 'trial' | 'detail' | 'receipt_id' | 'raised_at' | 'cleared_at'> & {
      seconds: number;
    }
  >(
    `select trial, detail, receipt_id, to_char(raised_at at time zone 'UTC', ${ISO}) as raised_at,
            to_char(cleared_at at time zone 'UTC', ${ISO}) as cleared_at,
            extract(epoch from (coalesce(cleared_at, $1::timestamptz) - raised_at)) as seconds
       from vigilance_alerts order by raised_at desc, id desc limit 50`,
    [ctx.clock.now().toISOString()],
  );
  const totals = one(
    await ctx.db.kysely
      .selectFrom('vigilance_alerts')
      .select((eb) => [
        eb.fn.countAll<number>().as('raised'),
        eb.fn.countAll<number>().filterWhere('cleared_at', 'is not', null).as('cleared'),
      ])
      .execute(),
  );
  const byTrial = new Map(watches.map((row) => [row.trial, row]));
  return {
    ok: true as const,
    schema: 'civitas.vigilance.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    watched: WATCHED.map((w) => {
      const row = byTrial.get(w.trial);
      return {
        trial: w.trial,
        watches: w.watches,
        passing: row ? row.passed : null,
        since: row?.since ?? null,
        last_checked_at: row?.checked_at ?? null,
      };
    }),
    this_pass: { raised: pass.raised, cleared: pass.cleared },
    last_pass_at: kept.as_of,
    alerts_raised: totals.raised,
    alerts_cleared: totals.cleared,
    open_alerts: totals.raised - totals.cleared,
    alerts: alerts.map((row) => ({
      trial: row.trial,
      detail: row.detail,
      raised_at: row.raised_at,
      cleared_at: row.cleared_at,
      open: row.cleared_at === null,
      seconds: Math.round(row.seconds),
      receipt_id: row.receipt_id,
    })),
    cadence:
      'The organism.vigilance job verifies what is new and re-checks a stretch of what was verified every minute (one process, advisory lock) and watches the trials it kept; a read shows the latest pass.',
  };
}
