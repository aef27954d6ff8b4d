/**
 * Prophecies: graded predictions (a probability) that one of the service's own metrics will be
 * ≥ or < a threshold at a due time. Resolved automatically from stored data as of the due time by
 * the `calibration.resolve` job (one process, under an advisory lock; a resolved prophecy is never
 * resolved again). The service makes its own prophecies at the start of each season (quarter).
 */
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { RowOf } from '../db/rows.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import type { ChangeStatus } from '../ledger/change-status.ts';
import type { Prophecy } from './entities.ts';
import {
  COMPARATOR_SIGN,
  METRIC_MEANING,
  type Comparator,
  type Metric,
} from '../../shared/calibration/scores.ts';
import { forecasterOf, ISO, type Face } from './columns.ts';

export const PROPHECY_ID = /^pro_[0-9A-HJKMNP-TV-Z]{26}$/;

export interface ProphecyInput {
  metric: Metric;
  comparator: Comparator;
  threshold: number;
  probability: number;
  due_at: Date;
}

export async function makeProphecy(ctx: AppContext, me: SignedIn, input: ProphecyInput) {
  const now = ctx.clock.now();
  const id = newId('pro', now);
  return ctx.db.transaction(async (tx) => {
    const receipt = await recordReceipt(tx, {
      step: 'calibration.prophecy',
      subject: `prophecy:${id}`,
      at: now,
    });
    await tx.query(
      `insert into prophecies (id, forecaster_kind, forecaster_id, metric, comparator, threshold, probability, made_at, due_at, receipt_id)
       values ($1, 'sovereign', $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        id,
        me.sovereignId,
        input.metric,
        input.comparator,
        input.threshold,
        input.probability,
        now.toISOString(),
        input.due_at.toISOString(),
        receipt.id,
      ],
    );
    return {
      ok: true as const,
      prophecy_id: id,
      statement: statementOf(input.metric, input.comparator, input.threshold, input.due_at.toISOString()),
      probability: input.probability,
      due_at: input.due_at.toISOString(),
      status: 'open' as const,
      receipt_id: receipt.id,
      links: { claim: `/almanac/claim/${id}/card.svg`, prophecies: '/prophecy' },
    };
  });
}

export function statementOf(
  metric: Metric,
  comparator: Comparator,
  threshold: number,
  dueAt: string,
): string {
  return `${metric} ${COMPARATOR_SIGN[comparator]} ${threshold} at ${dueAt.slice(0, 16).replace('T', ' ')} UTC`;
}

/** A prophecy as PROPHECY_COLUMNS selects it: times as ISO text, the forecaster's public face from the left join. */
export type ProphecyRow = Pick<
  RowOf<typeof Prophecy>,
  | 'id'
  | 'forecaster_kind'
  | 'metric'
  | 'comparator'
  | 'threshold'
  | 'probability'
  | 'season'
  | 'basis'
  | 'receipt_id'
  | 'observed'
  | 'outcome'
  | 'resolution_receipt_id'
  | 'forecaster_id'
  | 'made_at'
  | 'due_at'
  | 'resolved_at'
> &
  Face;

export const PROPHECY_COLUMNS = `p.id, p.forecaster_kind, p.metric, p.comparator, p.threshold, p.probability, ${ISO('p.made_at')} as made_at,
  ${ISO('p.due_at')} as due_at, p.season, p.basis, p.receipt_id, ${ISO('p.resolved_at')} as resolved_at, p.observed, p.outcome,
  p.resolution_receipt_id, p.forecaster_id, s.tag, s.callsign, s.callsign_visible, s.erased_at is not null as erased`;
export const PROPHECY_FROM = 'prophecies p left join sovereigns s on s.id = p.forecaster_id';

/** The one prophecy projection (page, JSON, feeds, cards). */
export function projectProphecy(row: ProphecyRow) {
  const threshold = row.threshold;
  return {
    id: row.id,
    forecaster: forecasterOf(row),
    metric: row.metric,
    metric_meaning: METRIC_MEANING[row.metric],
    comparator: row.comparator,
    threshold,
    statement: statementOf(row.metric, row.comparator, threshold, row.due_at),
    probability: Number(row.probability),
    made_at: row.made_at,
    due_at: row.due_at,
    season: row.season,
    basis: row.basis,
    status: row.resolved_at ? ('resolved' as const) : ('open' as const),
    resolved_at: row.resolved_at,
    observed: row.observed === null ? null : row.observed,
    outcome: row.outcome,
    receipt_id: row.receipt_id,
    resolution_receipt_id: row.resolution_receipt_id,
    links: {
      card: `/almanac/claim/${row.id}/card.svg`,
      answered: row.resolved_at ? `/almanac/claim/${row.id}/answered.svg` : null,
    },
  };
}
export type ProphecyView = ReturnType<typeof projectProphecy>;

export async function prophecyById(sql: Sql, id: string): Promise<ProphecyView | null> {
  if (!PROPHECY_ID.test(id)) return null;
  const [row] = await sql.query<ProphecyRow>(
    `select ${PROPHECY_COLUMNS} from ${PROPHECY_FROM} where p.id = $1`,
    [id],
  );
  return row ? projectProphecy(row) : null;
}

export async function prophecyList(
  sql: Sql,
  which: 'open' | 'resolved',
  limit: number,
): Promise<ProphecyView[]> {
  const rows = await sql.query<ProphecyRow>(
    which === 'open'
      ? `select ${PROPHECY_COLUMNS} from ${PROPHECY_FROM} where p.resolved_at is null order by p.due_at, p.id limit $1`
      : `select ${PROPHECY_COLUMNS} from ${PROPHECY_FROM} where p.resolved_at is not null order by p.resolved_at desc, p.id desc limit $1`,
    [limit],
  );
  return rows.map(projectProphecy);
}

/** Change status of `prophecy:<id>`: open, or resolved with its outcome (registered in api/families.ts). */
export async function prophecyChangeStatus(
  sql: Sql,
  ref: string,
  subject: string,
  now: Date,
): Promise<ChangeStatus | null> {
  const view = await prophecyById(sql, ref);
  if (!view) return null;
  const detail =
    view.status === 'open'
      ? `Open: ${view.statement}, at probability ${view.probability}; resolved automatically at its due time.`
      : `Resolved: ${view.statement} ${view.outcome ? 'came true' : 'did not come true'} (observed ${view.observed}).`;
  return {
    subject,
    status: view.status === 'open' ? 'open' : view.outcome ? 'came_true' : 'did_not_come_true',
    detail,
    as_of: now.toISOString(),
  };
}
