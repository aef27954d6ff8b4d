import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { one, type Counts, type RowOf } from '../db/rows.ts';
import type { Row } from '../db/kysely.ts';
import { sql as fragment } from 'kysely';
import type { SignedIn } from '../plugins/session.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { Refusal } from '../../shared/errors.ts';
import {
  CASE_ID,
  JURORS_REQUIRED,
  dissentOf,
  holdingOf,
  jurorView,
  normalizePrefixed,
  projectCase,
  type CaseRecord,
  type JurorSignature,
  type Verdict,
} from '../../shared/governance/court.ts';
import type { CourtCase } from './entities.ts';
import type { Viewer } from './service.ts';
import { iso } from '../../shared/time.ts';

const PRECEDENT_NUMBER_LOCK = 7_212_014; // pg_advisory_xact_lock key: precedents numbered one at a time
const sovereignActor = (id: string, tag: string) => ({
  actor_id: id,
  kind: 'sovereign' as const,
  tag: tag.trim(),
});
const conflict = (rule: string, hint: string, extra: Record<string, unknown> = {}) =>
  new Refusal('conflict', { rule, ...extra }, hint);
const receiptLink = (id: string) => `/receipt/${id}`;

/** A case as loadCases selects it, with the triage it contests and its opener's tag. */
type CaseRow = Pick<
  RowOf<typeof CourtCase>,
  | 'id'
  | 'sequence'
  | 'opener_id'
  | 'reason'
  | 'state'
  | 'outcome'
  | 'opened_at'
  | 'receipt_id'
  | 'final_at'
  | 'final_receipt_id'
  | 'precedent_id'
> & {
  triage_action: Row<'steward_actions'>['action'];
  triage_at: Row<'steward_actions'>['at'];
  triage_receipt_id: Row<'steward_actions'>['receipt_id'];
  opener_tag: Row<'sovereigns'>['tag'];
};

/** Cases with their juror signatures. The steward's note and the steward are never selected. */
export async function loadCases(
  sql: Sql,
  where: string,
  params: unknown[],
  limit = 200,
): Promise<CaseRecord[]> {
  // Raw: the caller's where clause, with the contested triage and the opener's tag.
  const rows = await sql.query<CaseRow>(
    `select c.id, c.sequence, a.action as triage_action, a.at as triage_at, a.receipt_id as triage_receipt_id,
            c.opener_id, s.tag as opener_tag, c.reason, c.state, c.outcome, c.opened_at, c.receipt_id,
            c.final_at, c.final_receipt_id, c.precedent_id
       from governance_court_cases c
       join steward_actions a on a.id = c.triage_action_id
       join sovereigns s on s.id = c.opener_id
      where ${where} order by c.opened_at desc, c.id desc limit ${limit}`,
    params,
  );
  if (!rows.length) return [];
  const ids = fragment<string[]>`${rows.map((r) => r.id)}::text[]`;
  const signatures = await sql.kysely
    .selectFrom('governance_court_signatures as g')
    .innerJoin('sovereigns as s', 's.id', 'g.sovereign_id')
    .select(['g.case_id', 'g.sovereign_id', 's.tag', 'g.verdict', 'g.reason', 'g.at', 'g.receipt_id'])
    .where((eb) => eb('g.case_id', '=', eb.fn.any(ids)))
    .orderBy('g.seq')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    sequence: r.sequence,
    disputed: { action: r.triage_action, decided_at: iso(r.triage_at)!, receipt_id: r.triage_receipt_id },
    opener: sovereignActor(r.opener_id, r.opener_tag),
    reason: r.reason,
    state: r.state,
    outcome: r.outcome,
    opened_at: iso(r.opened_at)!,
    receipt_id: r.receipt_id,
    final_at: iso(r.final_at),
    final_receipt_id: r.final_receipt_id,
    precedent_id: r.precedent_id,
    signatures: signatures
      .filter((g) => g.case_id === r.id)
      .map((g): JurorSignature => ({
        actor: sovereignActor(g.sovereign_id, g.tag),
        verdict: g.verdict,
        reason: g.reason,
        at: iso(g.at)!,
        receipt_id: g.receipt_id,
      })),
  }));
}

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

/** GET /api/verdicts and /verdicts: cases newest first, with signatures, outcome, precedent and receipts. */
export async function verdictsView(ctx: AppContext, viewer: Viewer | null) {
  const cases = await loadCases(ctx.db, 'true', []);
  const counts = one(
    await ctx.db.query<Counts<'cases' | 'open' | 'upheld' | 'overturned' | 'precedents'>>(
      `select (select count(*) from governance_court_cases) as cases,
            (select count(*) from governance_court_cases where state = 'open') as open,
            (select count(*) from governance_court_cases where outcome = 'uphold') as upheld,
            (select count(*) from governance_court_cases where outcome = 'overturn') as overturned,
            (select count(*) from governance_precedents) as precedents`,
    ),
  );
  return {
    ok: true as const,
    schema: 'civitas.verdicts.v1' as const,
    rules: RULES,
    counts: {
      cases: counts.cases,
      open: counts.open,
      final: counts.upheld + counts.overturned,
      upheld: counts.upheld,
      overturned: counts.overturned,
      precedents: counts.precedents,
    },
    cases: cases.map((c) => ({ ...projectCase(c), ...(viewer ? { viewer: viewerOnCase(viewer, c) } : {}) })),
    feeds: { verdicts: '/verdicts.xml', reversals: '/reversals.xml' },
    viewer: viewer
      ? { signed_in: true as const, ref: `sovereign:${viewer.tag}`, governance_write: viewer.governanceWrite }
      : { signed_in: false as const },
  };
}

export async function finalCases(sql: Sql, outcome?: Verdict, limit = 100): Promise<CaseRecord[]> {
  return outcome
    ? loadCases(sql, `c.state = 'final' and c.outcome = $1`, [outcome], limit)
    : loadCases(sql, `c.state = 'final'`, [], limit);
}

/** Opens a case against the latest steward triage decision on an imprint. */
export async function openCase(ctx: AppContext, who: SignedIn, input: { sequence: number; reason?: string }) {
  const now = ctx.clock.now();
  const id = newId('case', now);
  return ctx.db.transaction(async (tx) => {
    const [imprint] = await tx.query('select sequence from imprints where sequence = $1', [input.sequence]);
    if (!imprint)
      throw new Refusal(
        'not_found',
        { target: `imprint:${input.sequence}` },
        `No imprint #${input.sequence} is recorded.`,
      );
    const [decision] = await tx.kysely
      .selectFrom('steward_actions')
      .select(['id', 'action'])
      .where('sequence', '=', input.sequence)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .forUpdate()
      .execute();
    if (!decision) {
      throw conflict(
        'not_triaged',
        `No steward has triaged imprint #${input.sequence}; a court case disputes a triage decision.`,
        { target: `imprint:${input.sequence}` },
      );
    }
    const [existing] = await tx.kysely
      .selectFrom('governance_court_cases')
      .select('id')
      .where('triage_action_id', '=', decision.id)
      .execute();
    if (existing) {
      throw conflict(
        'already_disputed',
        `The latest triage decision on imprint #${input.sequence} is already before the court as ${existing.id}.`,
        { target: `imprint:${input.sequence}`, case_id: existing.id },
      );
    }
    const receipt = await recordReceipt(tx, {
      step: 'governance.court.open',
      subject: `case:${id}`,
      at: now,
    });
    await tx.query(
      `insert into governance_court_cases (id, sequence, triage_action_id, opener_id, reason, state, opened_at, receipt_id) values ($1, $2, $3, $4, $5, 'open', $6, $7)`,
      [id, input.sequence, decision.id, who.sovereignId, input.reason ?? null, now.toISOString(), receipt.id],
    );
    const record = one(await loadCases(tx, 'c.id = $1', [id], 1));
    return {
      ok: true as const,
      case: projectCase(record),
      state: record.state,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
}

/** A juror's signature; the third concurring one makes the verdict final and sets a precedent. */
export async function signVerdict(
  ctx: AppContext,
  who: SignedIn,
  input: { caseId: string; verdict: Verdict; reason: string },
) {
  const now = ctx.clock.now();
  const id = normalizePrefixed('case_', input.caseId);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.query('select id from governance_court_cases where id = $1 for update', [id]);
    if (!row)
      throw new Refusal(
        'not_found',
        { case_id: id },
        `No court case ${id} is recorded. Cases are listed at /api/verdicts.`,
      );
    const c = one(await loadCases(tx, 'c.id = $1', [id], 1));
    if (c.opener.actor_id === who.sovereignId)
      throw conflict('opener_cannot_sign', 'The sovereign who opened a case cannot sit as its juror.', {
        case_id: id,
      });
    if (c.signatures.some((s) => s.actor.actor_id === who.sovereignId))
      throw conflict('already_signed', 'You have already signed this verdict; a juror signs once.', {
        case_id: id,
        state: c.state,
      });
    if (c.state !== 'open')
      throw conflict('case_closed', `This case is final (${c.outcome}); no more signatures are taken.`, {
        case_id: id,
        state: c.state,
        outcome: c.outcome,
      });
    const receipt = await recordReceipt(tx, {
      step: `governance.court.sign.${input.verdict}`,
      subject: `case:${id}`,
      at: now,
    });
    await tx.query(
      'insert into governance_court_signatures (case_id, sovereign_id, verdict, reason, at, receipt_id) values ($1, $2, $3, $4, $5, $6)',
      [id, who.sovereignId, input.verdict, input.reason, now.toISOString(), receipt.id],
    );
    let verdict: { receipt_id: string; precedent_id: string; precedent_receipt_id: string } | null = null;
    const concurring = c.signatures.filter((s) => s.verdict === input.verdict).length + 1;
    if (concurring >= JURORS_REQUIRED) {
      const final = await recordReceipt(tx, {
        step: `governance.court.verdict.${input.verdict}`,
        subject: `case:${id}`,
        at: now,
      });
      await tx.query('select pg_advisory_xact_lock($1)', [PRECEDENT_NUMBER_LOCK]);
      const { next } = one(
        await tx.query<Counts<'next'>>(
          'select coalesce(max(number), 0) + 1 as next from governance_precedents',
        ),
      );
      const number = next;
      const precedentId = `precedent-${number}`;
      const set = await recordReceipt(tx, {
        step: 'governance.precedent',
        subject: `precedent:${precedentId}`,
        at: now,
      });
      await tx.query(
        `update governance_court_cases set state = 'final', outcome = $2, final_at = $3, final_receipt_id = $4, precedent_id = $5 where id = $1`,
        [id, input.verdict, now.toISOString(), final.id, precedentId],
      );
      await tx.query(
        'insert into governance_precedents (id, number, case_id, holding, set_at, receipt_id) values ($1, $2, $3, $4, $5, $6)',
        [precedentId, number, id, holdingOf(c.disputed.action, input.verdict), now.toISOString(), set.id],
      );
      verdict = { receipt_id: final.id, precedent_id: precedentId, precedent_receipt_id: set.id };
    }
    const record = one(await loadCases(tx, 'c.id = $1', [id], 1));
    return {
      ok: true as const,
      case: projectCase(record),
      state: record.state,
      outcome: record.outcome,
      verdict: verdict
        ? {
            final: true,
            receipt_id: verdict.receipt_id,
            precedent: {
              id: verdict.precedent_id,
              receipt_id: verdict.precedent_receipt_id,
              href: `/api/court/precedent/${verdict.precedent_id}`,
            },
            verify: `/verify/court/${id}`,
          }
        : null,
      receipt_id: receipt.id,
      receipt: receiptLink(receipt.id),
    };
  });
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

/** GET /api/dissent: the minority signatures of final verdicts, by public ref. */
export async function dissentView(ctx: AppContext) {
  const cases = await finalCases(ctx.db, undefined, 200);
  const withDissent = cases.filter((c) => dissentOf(c).length > 0);
  return {
    ok: true as const,
    schema: 'civitas.dissent.v1' as const,
    definition: `A dissent is a juror's signed verdict on the losing side of a final court verdict (${JURORS_REQUIRED} concurring signatures decide). Jurors appear by public tag only.`,
    counts: {
      final_verdicts: cases.length,
      with_dissent: withDissent.length,
      dissents: withDissent.reduce((n, c) => n + dissentOf(c).length, 0),
    },
    verdicts: withDissent.map((c) => ({
      case_id: c.id,
      target: `imprint:${c.sequence}`,
      disputed_action: c.disputed.action,
      outcome: c.outcome,
      final_at: c.final_at,
      precedent_id: c.precedent_id,
      dissents: dissentOf(c).map(jurorView),
    })),
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
