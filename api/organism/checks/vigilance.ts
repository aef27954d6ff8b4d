/**
 * Vigilance: the self-trials are watched. A watch pass (the `organism.vigilance` job every five
 * minutes, taken by one process under an advisory lock, and each read of /api/vigilance) re-runs
 * the trials; when a trial starts failing an alert is raised, when it passes again the alert is
 * cleared. Both moves record a receipt (`organism.alert.raised` / `organism.alert.cleared`).
 */
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import { recordReceipt } from '../../ledger/receipts.ts';
import { runSelfTrials, type TrialsView } from './trials.ts';
import { checkTruths } from '../mind/truth.ts';

export const VIGILANCE_LOCK = 7_212_013;
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

export interface WatchResult {
  ran: boolean;
  raised: string[];
  cleared: string[];
}

/**
 * One watch pass over a fresh run of the self-trials. It takes the CensusHost because the run's
 * boundaries trial is the live census over the app's own routes (runSelfTrials).
 */
export async function watchTrials(ctx: AppContext, host: CensusHost): Promise<WatchResult> {
  return recordWatch(ctx, await runSelfTrials(ctx, host));
}

/** Records what a trial run shows. Returns ran: false when another process holds the lock right now. */
export async function recordWatch(ctx: AppContext, trials: TrialsView): Promise<WatchResult> {
  const result = await ctx.db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>('select pg_try_advisory_xact_lock($1) as locked', [
      VIGILANCE_LOCK,
    ]);
    if (!lock?.locked) return { ran: false, raised: [], cleared: [] };
    const now = ctx.clock.now();
    const raised: string[] = [];
    const cleared: string[] = [];
    for (const trial of trials.trials) {
      const [watch] = await tx.query<{ passed: boolean }>(
        'select passed from vigilance_watches where trial = $1 for update',
        [trial.name],
      );
      if (!watch) {
        await tx.query(
          'insert into vigilance_watches (trial, passed, since, checked_at) values ($1, $2, $3, $3)',
          [trial.name, trial.passed, now.toISOString()],
        );
      } else if (watch.passed !== trial.passed) {
        await tx.query(
          'update vigilance_watches set passed = $2, since = $3, checked_at = $3 where trial = $1',
          [trial.name, trial.passed, now.toISOString()],
        );
      } else {
        await tx.query('update vigilance_watches set checked_at = $2 where trial = $1', [
          trial.name,
          now.toISOString(),
        ]);
      }
      const [open] = await tx.query<{ id: string }>(
        'select id from vigilance_alerts where trial = $1 and cleared_at is null',
        [trial.name],
      );
      if (!trial.passed && !open) {
        const receipt = await recordReceipt(tx, {
          step: 'organism.alert.raised',
          subject: `trial:${trial.name}`,
          at: now,
        });
        await tx.query(
          'insert into vigilance_alerts (trial, raised_at, detail, receipt_id) values ($1, $2, $3, $4)',
          [trial.name, now.toISOString(), trial.detail, receipt.id],
        );
        raised.push(trial.name);
      } else if (trial.passed && open) {
        await recordReceipt(tx, { step: 'organism.alert.cleared', subject: `trial:${trial.name}`, at: now });
        await tx.query('update vigilance_alerts set cleared_at = $2 where id = $1', [
          open.id,
          now.toISOString(),
        ]);
        cleared.push(trial.name);
      }
    }
    return { ran: true, raised, cleared };
  });
  return result;
}

/** The job: a watch pass plus a truth check from the same trial run (the host, for the census: runSelfTrials). */
export async function vigilanceJob(ctx: AppContext, host: CensusHost) {
  const trials = await runSelfTrials(ctx, host);
  const watch = await recordWatch(ctx, trials);
  if (watch.ran) await checkTruths(ctx, host, trials);
  return watch;
}

/** GET /api/vigilance: the watches and alerts after `pass`, the watch pass this read ran (watchTrials). */
export async function vigilanceProjection(ctx: AppContext, pass: WatchResult) {
  const watches = await ctx.db.query<Record<string, unknown>>(
    `select trial, passed, to_char(since at time zone 'UTC', ${ISO}) as since, to_char(checked_at at time zone 'UTC', ${ISO}) as checked_at from vigilance_watches`,
  );
  const alerts = await ctx.db.query<Record<string, unknown>>(
    `select trial, detail, receipt_id, to_char(raised_at at time zone 'UTC', ${ISO}) as raised_at,
            to_char(cleared_at at time zone 'UTC', ${ISO}) as cleared_at,
            extract(epoch from (coalesce(cleared_at, $1::timestamptz) - raised_at)) as seconds
       from vigilance_alerts order by raised_at desc, id desc limit 50`,
    [ctx.clock.now().toISOString()],
  );
  const [totals] = await ctx.db.query<Record<string, string | number>>(
    'select count(*) as raised, count(*) filter (where cleared_at is not null) as cleared from vigilance_alerts',
  );
  const byTrial = new Map(watches.map((row) => [String(row.trial), row]));
  return {
    ok: true as const,
    schema: 'civitas.vigilance.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    watched: WATCHED.map((w) => {
      const row = byTrial.get(w.trial);
      return {
        trial: w.trial,
        watches: w.watches,
        passing: row ? Boolean(row.passed) : null,
        since: (row?.since as string | undefined) ?? null,
        last_checked_at: (row?.checked_at as string | undefined) ?? null,
      };
    }),
    this_pass: pass.ran
      ? { raised: pass.raised, cleared: pass.cleared }
      : { skipped: 'another process was watching at this moment' },
    alerts_raised: Number(totals.raised),
    alerts_cleared: Number(totals.cleared),
    open_alerts: Number(totals.raised) - Number(totals.cleared),
    alerts: alerts.map((row) => ({
      trial: String(row.trial),
      detail: String(row.detail),
      raised_at: String(row.raised_at),
      cleared_at: (row.cleared_at as string | null) ?? null,
      open: row.cleared_at === null,
      seconds: Math.round(Number(row.seconds)),
      receipt_id: String(row.receipt_id),
    })),
    cadence:
      'The organism.vigilance job re-runs the self-trials every 5 minutes (one process, advisory lock); each read of /api/vigilance runs a pass too.',
  };
}
