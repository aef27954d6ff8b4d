/**
 * What the court has decided, as read: the verdicts (with the viewer's part in each case), a
 * precedent, the dissents, and the final verdict receipt /verify/court/{id} checks.
 */
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { one } from '../db/rows.ts';
import { keptValue, talliesUnder } from '../db/tallies.ts';
import { decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import { Refusal } from '../../shared/errors.ts';
import {
  CASE_ID,
  JURORS_REQUIRED,
  dissentOf,
  jurorView,
  normalizePrefixed,
  projectCase,
  type CaseRecord,
} from '../../shared/governance/court.ts';
import type { Viewer } from './service.ts';
import { loadCases } from './cases.ts';
import { iso } from '../../shared/time.ts';

const RULES = {
  cases_come_from:
    'a steward triage decision on an imprint (POST /sovereign/court-sign with case "new" and target imprint:<n>)',
  jurors_required: JURORS_REQUIRED,
  juror_needs: 'governance:write',
  opener_may_sign: false,
  signatures_per_juror: 1,
  final_when: `${JURORS_REQUIRED} concurring juror signatures (uphold or overturn)`,
  final_sets: 'a precedent (GET /api/court/precedent/{id})',
  effect:
    "A verdict is the court's record about the steward's decision; it does not itself change the imprint. Stewards act on it through triage.",
};

function viewerOnCase(viewer: Viewer, c: CaseRecord) {
  const isOpener = c.opener.actor_id === viewer.sovereignId;
  const signed = c.signatures.find((s) => s.actor.actor_id === viewer.sovereignId);
  return {
    is_opener: isOpener,
    signed: signed ? signed.verdict : null,
    can_sign: viewer.governanceWrite && c.state === 'open' && !isOpener && !signed,
  };
}

/**
 * The cases' order: newest opened first, a page at a time. The key is the id alone: a case's id is
 * the ULID of the moment it was opened (`newId('case', now)`, api/governance/court.ts, the same
 * `now` as opened_at), so id order is opening order, read along the primary key.
 */
export const CASE_ORDER: KeyOrder = {
  path: '/api/verdicts',
  columns: [{ sql: 'c.id', type: 'text' }],
  order: 'desc',
};

/**
 * One page of the cases `where` admits, in `order` (keyed on the case id), its links, and the
 * court's figures: `court:<figure>` tallies kept by triggers (migrations 0092, 0093), never a count
 * of every case on each request.
 */
async function casesPage(
  ctx: AppContext,
  order: KeyOrder,
  where: string,
  query: { limit: number; after?: string },
) {
  const cursor = decodeCursor(order, query.after);
  const key = keyClause(order, cursor, 1);
  const [rows, kept] = await Promise.all([
    loadCases(ctx.db, `${where} and ${key.where}`, key.params, query.limit + 1, key.orderBy),
    talliesUnder(ctx.db, 'court:'),
  ]);
  const page = pageOf(rows, query.limit, cursor, (c) => [c.id]);
  return {
    cases: page.rows,
    links: pageFields(order, page, query.limit, { limit: query.limit }),
    figure: (name: string) => keptValue(kept, name),
  };
}

/** GET /api/verdicts and /verdicts: one page of cases, newest first, with signatures, outcome, precedent and receipts. */
export async function verdictsView(
  ctx: AppContext,
  viewer: Viewer | null,
  query: { limit: number; after?: string },
) {
  const { cases, links, figure } = await casesPage(ctx, CASE_ORDER, 'true', query);
  const [upheld, overturned] = [figure('outcome:uphold'), figure('outcome:overturn')];
  return {
    ok: true as const,
    schema: 'civitas.verdicts.v1' as const,
    rules: RULES,
    counts: {
      cases: figure('cases'),
      open: figure('open'),
      final: upheld + overturned,
      upheld,
      overturned,
      precedents: figure('precedents'),
    },
    cases: cases.map((c) => ({
      ...projectCase(c),
      ...(viewer ? { viewer: viewerOnCase(viewer, c) } : {}),
    })),
    ...links,
    feeds: { verdicts: '/verdicts.xml', reversals: '/reversals.xml' },
    viewer: viewer
      ? { signed_in: true as const, ref: `sovereign:${viewer.tag}`, governance_write: viewer.governanceWrite }
      : { signed_in: false as const },
  };
}

/** GET /api/court/precedent/{id}: 404 unknown (the contract refused a malformed id with 400). */
export async function precedentView(ctx: AppContext, raw: string) {
  const [row] = await ctx.db.kysely
    .selectFrom('governance_precedents')
    .select(['id', 'number', 'case_id', 'holding', 'set_at', 'receipt_id'])
    .where('id', '=', raw)
    .execute();
  if (!row)
    throw new Refusal(
      'not_found',
      { id: raw },
      `No precedent ${raw} is set. Final verdicts set precedents; see /api/verdicts.`,
    );
  const c = one(await loadCases(ctx.db, 'c.id = $1', [row.case_id], 1));
  const majority = c.signatures.filter((s) => s.verdict === c.outcome);
  return {
    ok: true as const,
    schema: 'civitas.precedent.v1' as const,
    id: row.id,
    number: row.number,
    holding: row.holding,
    set_at: iso(row.set_at),
    receipt_id: row.receipt_id,
    outcome: c.outcome,
    disputed_action: c.disputed.action,
    case: projectCase(c),
    majority: majority.map(jurorView),
    dissent: dissentOf(c).map(jurorView),
    links: { verify: `/verify/court/${c.id}`, receipt: `/verify/${row.receipt_id}`, verdicts: '/verdicts' },
  };
}

/**
 * The final cases with dissent, newest opened first, a page at a time: by id as CASE_ORDER, along
 * the partial index of cases whose `dissents` is above zero (migration 0093).
 */
export const DISSENT_ORDER: KeyOrder = { ...CASE_ORDER, path: '/api/dissent' };

/**
 * GET /api/dissent and /dissent: one page of final verdicts with their minority signatures, by
 * public ref; the figures of every final verdict from the court's tallies (migrations 0092, 0093).
 */
export async function dissentView(ctx: AppContext, query: { limit: number; after?: string }) {
  const { cases, links, figure } = await casesPage(ctx, DISSENT_ORDER, 'c.dissents > 0', query);
  return {
    ok: true as const,
    schema: 'civitas.dissent.v1' as const,
    definition: `A dissent is a juror's signed verdict on the losing side of a final court verdict (${JURORS_REQUIRED} concurring signatures decide). Jurors appear by public tag only.`,
    counts: {
      final_verdicts: figure('outcome:uphold') + figure('outcome:overturn'),
      with_dissent: figure('with_dissent'),
      dissents: figure('dissents'),
    },
    verdicts: cases.map((c) => ({
      case_id: c.id,
      target: `imprint:${c.sequence}`,
      disputed_action: c.disputed.action,
      outcome: c.outcome,
      final_at: c.final_at,
      precedent_id: c.precedent_id,
      dissents: dissentOf(c).map(jurorView),
    })),
    ...links,
    proposals: {
      available: false as const,
      note: 'No act records a dissent on a proposal (withholding a cosign is silence, counted under /api/abstentions), so none is listed here.',
    },
  };
}

/** The final verdict receipt of a case, for /verify/court/{id} (registered with api/ledger/subjects.ts). 404 for anything but a final case. */
export async function courtVerdictReceipt(
  sql: Sql,
  raw: string,
): Promise<{ receipt_id: string; subject: ReturnType<typeof projectCase> }> {
  // Not a case id names no court case: 404, like any id that names none, with the id form in the hint.
  if (!CASE_ID.test(raw))
    throw new Refusal(
      'not_found',
      { id: raw.slice(0, 64) },
      'No court case is recorded under that id. Court case ids look like case_ followed by 26 characters; cases are listed at /api/verdicts.',
    );
  const id = normalizePrefixed('case_', raw);
  const [c] = await loadCases(sql, 'c.id = $1', [id], 1);
  if (!c)
    throw new Refusal(
      'not_found',
      { id },
      `No court case ${id} is recorded; cases are listed at /api/verdicts.`,
    );
  if (c.state !== 'final' || !c.final_receipt_id) {
    throw new Refusal(
      'not_found',
      { id, state: c.state },
      `Case ${id} has no final verdict yet (${JURORS_REQUIRED} concurring juror signatures make one), so there is no verdict receipt to verify. Its opening receipt is ${c.receipt_id}: /verify/${c.receipt_id}.`,
    );
  }
  return { receipt_id: c.final_receipt_id, subject: projectCase(c) };
}
