/**
 * The watch pass (docs/organism.md "checks"): what a verification run's trials show, recorded in
 * that run's closing transaction (knowledge.ts). A trial that starts failing raises an alert (one
 * open alert per trial: a partial unique index), passing again clears it; both moves record a
 * receipt (`organism.alert.raised` / `organism.alert.cleared`, subject `trial:<name>`).
 */
import type { AppContext } from '../../context.ts';
import type { Sql } from '../../db/database.ts';
import { recordReceipt } from '../../ledger/receipts.ts';
import type { TrialsView } from './trials.ts';

export interface WatchResult {
  ran: boolean;
  raised: string[];
  cleared: string[];
}

/**
 * Records what a verification run's trials show, inside that run's closing transaction
 * (knowledge.ts), which holds the kept answer's row: one run records at a time, in run order.
 */
export async function recordWatch(tx: Sql, ctx: AppContext, trials: TrialsView): Promise<WatchResult> {
  const now = ctx.clock.now();
  const raised: string[] = [];
  const cleared: string[] = [];
  for (const trial of trials.trials) {
    const [watch] = await tx.kysely
      .selectFrom('vigilance_watches')
      .select('passed')
      .where('trial', '=', trial.name)
      .forUpdate()
      .execute();
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
    const [open] = await tx.kysely
      .selectFrom('vigilance_alerts')
      .select('id')
      .where('trial', '=', trial.name)
      .where('cleared_at', 'is', null)
      .execute();
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
}
