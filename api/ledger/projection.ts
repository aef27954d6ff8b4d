/**
 * The ledger's projections: ONE receipt projection (JSON, page, MCP, card, feed all use it), the
 * verification view and the receipt's subject timeline (change status: ./change-status.ts).
 */
import type { AppContext } from '../context.ts';
import { verifyReceiptProof, type ReceiptVerification } from '../../shared/ledger/index.ts';
import { anchorOf, wireAnchor } from './anchors.ts';
import { anchorKey, isoText, logKeyName, receiptById, receiptsOfSubject, type ReceiptRow } from './log.ts';
import { proofFor, type InclusionProofView } from './proofs.ts';
import { Refusal } from '../../shared/errors.ts';
import { subjectEvents, type TimelineEntry } from './subjects.ts';
import { RECEIPT_ID, type receiptViewSchema } from '../../shared/registry/schemas/ledger.ts';
import type { z } from 'zod';
import { denialOf } from './denials.ts';
import type { DenialReceipt } from '../../shared/boundaries/projectors/actors.ts';
import { changeStatusOf, type ChangeStatus } from './change-status.ts';

export { RECEIPT_ID };

/** The one receipt projection (its schema is the ledger contract's). */
export type ReceiptView = z.infer<typeof receiptViewSchema>;

/** The one receipt projection: an explicit allow-list of public fields. */
export function projectReceipt(row: ReceiptRow, change_status: ChangeStatus | null): ReceiptView {
  const redacted = row.subject_redacted_at !== null || row.subject === null;
  return {
    id: row.id,
    step: row.step,
    subject: redacted ? 'redacted' : (row.subject as string),
    subject_salt: redacted ? null : row.subject_salt,
    subject_digest: row.subject_digest,
    subject_redacted: redacted,
    recorded_at: row.recorded_at,
    leaf_hash: row.leaf_hash,
    log: { date: row.log_date, leaf_index: row.leaf_index },
    change_status,
    meaning:
      'This receipt proves that the step was recorded. It does not prove that a requested change was applied; change_status reports that separately.',
    links: {
      page: `/receipt/${row.id}`,
      verify: `/verify/${row.id}`,
      inclusion: `/verify/inclusion/${row.log_date}/${row.id}`,
      anchor: `/verify/anchor/${row.log_date}`,
      card: `/receipt/${row.id}/card.svg`,
      feed: `/receipt/${row.id}/feed.xml`,
      ledger: `/ledger/${row.id}`,
    },
  };
}

export async function receiptView(ctx: AppContext, row: ReceiptRow): Promise<ReceiptView> {
  const redacted = row.subject_redacted_at !== null || row.subject === null;
  return projectReceipt(row, redacted ? null : await changeStatusOf(ctx.db, row.subject, ctx.clock.now()));
}

/** The stored receipt under `id`, else the one not_found refusal every receipt door answers. */
export async function receiptOr404(ctx: AppContext, id: string): Promise<ReceiptRow> {
  const row = await receiptById(ctx.db, id);
  if (!row)
    throw new Refusal(
      'not_found',
      { id },
      'No receipt is recorded under that id. Receipt ids look like rcpt_ followed by 26 characters; see /receipt/missing.',
    );
  return row;
}

/** GET /api/receipt/{id} and MCP civitas_receipt. */
export async function receiptDocument(ctx: AppContext, id: string) {
  return { ok: true as const, ...(await receiptView(ctx, await receiptOr404(ctx, id))) };
}

export interface VerificationView {
  ok: boolean;
  receipt: ReceiptView;
  proof: InclusionProofView | null;
  verification: ReceiptVerification | null;
  denial: DenialReceipt | null;
  key: { key_name: string; public_jwk: unknown; jwks: string };
  how: string[];
}

/** GET /verify/{id} and MCP civitas_verify. */
export async function verificationDocument(ctx: AppContext, id: string): Promise<VerificationView> {
  return verificationView(ctx, await receiptOr404(ctx, id));
}

/** /verify/{id}: the receipt, its proof, the anchor when sealed, and the verifier's own run over them. */
export async function verificationView(ctx: AppContext, row: ReceiptRow): Promise<VerificationView> {
  const [receipt, proof, denial] = await Promise.all([
    receiptView(ctx, row),
    proofFor(ctx, row),
    row.step.startsWith('denial.') ? denialOf(ctx.db, row.id) : null,
  ]);
  const jwk = await anchorKey(ctx, proof?.anchor?.key_id);
  const keyName = logKeyName(ctx);
  const verification = proof ? await verifyReceiptProof({ receipt, proof, publicJwk: jwk, keyName }) : null;
  return {
    ok: verification?.ok ?? false,
    receipt,
    proof,
    verification,
    denial,
    key: {
      key_name: keyName,
      public_jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: jwk.kid, alg: jwk.alg },
      jwks: '/agents.json',
    },
    how: [
      'subject: unless redacted, lowercase hex SHA-256(subject_salt bytes || UTF-8 subject) must equal subject_digest.',
      'leaf_hash = SHA-256(0x00 || UTF-8 canonical JSON {"id","recorded_at","step","subject_digest"}) (RFC 6962 leaf).',
      'inclusion: RFC 9162 section 2.1.3.2 over leaf_index, tree_size, leaf_hash and inclusion_path must give root_hash.',
      'sealed days: the anchor (same date, tree_size, root_hash) carries an Ed25519 signature over its canonical body and a C2SP checkpoint; both verify with the published key.',
      'open days: head.checkpoint is a C2SP checkpoint of the current tree, signed now; the day is sealed into an anchor after it ends (UTC).',
      'The verifier ships in /relay-client.mjs (verifyReceiptProof) and in shared/ledger/verifier.ts.',
    ],
  };
}

/**
 * The subject's status changes, derived from stored data: every receipt recorded about the same
 * subject, and the events its family registered (./subjects.ts: an imprint's body leaving the window).
 */
export async function subjectTimeline(ctx: AppContext, row: ReceiptRow): Promise<TimelineEntry[]> {
  const redacted = row.subject_redacted_at !== null || row.subject === null;
  if (redacted)
    return [
      {
        at: row.recorded_at,
        status: 'recorded',
        title: `${row.step} recorded (subject redacted)`,
        receipt_id: row.id,
      },
    ];
  const subject = row.subject as string;
  const receipts = await receiptsOfSubject(ctx.db, subject, 200);
  const entries: TimelineEntry[] = receipts.map((r) => ({
    at: r.recorded_at,
    status: r.step,
    title: `${r.step} recorded for ${subject}`,
    receipt_id: r.id,
  }));
  entries.push(...(await subjectEvents(ctx.db, subject)));
  entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return entries;
}

export async function anchorView(ctx: AppContext, date: string) {
  const anchor = await anchorOf(ctx.db, date);
  if (!anchor) return null;
  // `order by marked_at` names the selected text (PostgreSQL prefers an output column), as it always has.
  const marks = await ctx.db.kysely
    .selectFrom('witness_marks')
    .select(['witness', 'signature_line', isoText('marked_at').as('marked_at')])
    .where('date', '=', date)
    .orderBy('marked_at')
    .orderBy('witness')
    .execute();
  return {
    ok: true as const,
    ...wireAnchor(anchor),
    anchor_hash: anchor.anchor_hash,
    sealed_at: anchor.sealed_at,
    key_name: logKeyName(ctx),
    cosignatures: marks.map((m) => ({
      witness: m.witness,
      signature_line: m.signature_line,
      marked_at: m.marked_at,
    })),
  };
}
