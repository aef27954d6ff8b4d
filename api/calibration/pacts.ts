/**
 * Pacts: public commitments with a due date and a stake in points (no money). Others may stake on
 * them (kept or broken, one stake per sovereign, not on your own pact, only while open and before
 * it is due). Resolution belongs to the pact's author; no door for it exists yet, so a pact past its
 * due date reads `awaiting_author` until one does.
 */
import { ulid } from 'ulid';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import type { ChangeStatus } from '../ledger/projection.ts';
import { Refusal } from '../../shared/errors.ts';
import { forecasterOf, ISO } from './prophecies.ts';

export const PACT_ID = /^pact_[0-9A-HJKMNP-TV-Z]{26}$/;
export const PACT_SIDES = ['kept', 'broken'] as const;
export const POINTS_MAX = 1000;

export async function makePact(ctx: AppContext, me: SignedIn, input: { title: string; detail?: string; stake: number; due_at: Date }) {
  const now = ctx.clock.now();
  const id = `pact_${ulid(now.getTime())}`;
  return ctx.db.transaction(async (tx) => {
    const receipt = await recordReceipt(tx, { step: 'calibration.pact', subject: `pact:${id}`, at: now });
    await tx.query(
      `insert into pacts (id, author_id, title, detail, stake, made_at, due_at, status, receipt_id) values ($1, $2, $3, $4, $5, $6, $7, 'open', $8)`,
      [id, me.sovereignId, input.title, input.detail ?? '', input.stake, now.toISOString(), input.due_at.toISOString(), receipt.id],
    );
    return { ok: true as const, pact_id: id, status: 'open' as const, stake: input.stake, due_at: input.due_at.toISOString(), receipt_id: receipt.id, links: { claim: `/almanac/claim/${id}/card.svg`, almanac: '/almanac' } };
  });
}

export async function stakeOnPact(ctx: AppContext, me: SignedIn, input: { pact: string; points: number; side: (typeof PACT_SIDES)[number] }) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [pact] = await tx.query<{ author_id: string | null; status: string; due_at: string }>(`select author_id, status, ${ISO('due_at')} as due_at from pacts where id = $1 for update`, [input.pact]);
    if (!pact) throw new Refusal('not_found', { pact: input.pact }, `No pact ${input.pact} is recorded. See /almanac.`);
    if (pact.author_id === me.sovereignId) throw new Refusal('conflict', { pact: input.pact }, 'This is your own pact; its stake is already yours. Stakes come from others.');
    if (pact.status !== 'open' || new Date(pact.due_at) <= now) throw new Refusal('conflict', { pact: input.pact }, 'This pact is no longer open to stakes (it is due or answered).');
    const receipt = await recordReceipt(tx, { step: 'calibration.stake', subject: `pact:${input.pact}`, at: now });
    const [row] = await tx.query(
      `insert into pact_stakes (pact_id, sovereign_id, side, points, created_at, receipt_id) values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning pact_id`,
      [input.pact, me.sovereignId, input.side, input.points, now.toISOString(), receipt.id],
    );
    // Throwing rolls the receipt back with the transaction.
    if (!row) throw new Refusal('conflict', { pact: input.pact }, 'You already staked on this pact; one stake per sovereign.');
    return { ok: true as const, pact_id: input.pact, side: input.side, points: input.points, receipt_id: receipt.id };
  });
}

interface PactRow {
  id: string;
  title: string;
  detail: string;
  stake: number | string;
  made_at: string;
  due_at: string;
  status: 'open' | 'kept' | 'broken';
  resolved_at: string | null;
  receipt_id: string;
  author_id: string | null;
  tag: string | null;
  callsign: string | null;
  callsign_visible: boolean | null;
  erased: boolean | null;
  staked_kept: string | number;
  staked_broken: string | number;
  stakers: string | number;
}

const PACT_SELECT = `select p.id, p.title, p.detail, p.stake, ${ISO('p.made_at')} as made_at, ${ISO('p.due_at')} as due_at, p.status,
    ${ISO('p.resolved_at')} as resolved_at, p.receipt_id, p.author_id, s.tag, s.callsign, s.callsign_visible, s.erased_at is not null as erased,
    coalesce((select sum(points) from pact_stakes k where k.pact_id = p.id and k.side = 'kept'), 0) as staked_kept,
    coalesce((select sum(points) from pact_stakes k where k.pact_id = p.id and k.side = 'broken'), 0) as staked_broken,
    (select count(*) from pact_stakes k where k.pact_id = p.id) as stakers
  from pacts p left join sovereigns s on s.id = p.author_id`;

/** The one pact projection: the author by public ref; stakes as point sums (stakers are not named). */
export function projectPact(row: PactRow, now: Date) {
  const state = row.status === 'open' && new Date(row.due_at) <= now ? 'awaiting_author' : row.status;
  return {
    id: row.id,
    author: forecasterOf({ forecaster_kind: 'sovereign', forecaster_id: row.author_id, tag: row.tag, callsign: row.callsign, callsign_visible: row.callsign_visible, erased: row.erased }),
    title: row.title,
    detail: row.detail,
    stake: Number(row.stake),
    made_at: row.made_at,
    due_at: row.due_at,
    status: state as 'open' | 'awaiting_author' | 'kept' | 'broken',
    resolved_at: row.resolved_at,
    stakes: { kept: Number(row.staked_kept), broken: Number(row.staked_broken), stakers: Number(row.stakers) },
    receipt_id: row.receipt_id,
    links: { card: `/almanac/claim/${row.id}/card.svg`, answered: row.resolved_at ? `/almanac/claim/${row.id}/answered.svg` : null },
  };
}
export type PactView = ReturnType<typeof projectPact>;

export async function pactById(sql: Sql, id: string, now: Date): Promise<PactView | null> {
  if (!PACT_ID.test(id)) return null;
  const [row] = await sql.query<PactRow>(`${PACT_SELECT} where p.id = $1`, [id]);
  return row ? projectPact(row, now) : null;
}

export async function pactList(sql: Sql, which: 'open' | 'answered', limit: number, now: Date): Promise<PactView[]> {
  const rows = await sql.query<PactRow>(
    which === 'open'
      ? `${PACT_SELECT} where p.status = 'open' order by p.due_at, p.id limit $1`
      : `${PACT_SELECT} where p.status <> 'open' order by p.resolved_at desc, p.id desc limit $1`,
    [limit],
  );
  return rows.map((row) => projectPact(row, now));
}

/** changeStatusResolvers.pact */
export async function pactChangeStatus(sql: Sql, ref: string, subject: string, now: Date): Promise<ChangeStatus | null> {
  const view = await pactById(sql, ref, now);
  if (!view) return null;
  const detail = {
    open: `Open until ${view.due_at}; ${view.stakes.stakers} stake(s).`,
    awaiting_author: `Due since ${view.due_at}; awaiting its author's answer (kept or broken).`,
    kept: `Kept (answered ${view.resolved_at}).`,
    broken: `Broken (answered ${view.resolved_at}).`,
  }[view.status];
  return { subject, status: view.status, detail, as_of: now.toISOString() };
}
