import type { Sql } from '../db/database.ts';
import type { RowOf } from '../db/rows.ts';
import type { Denial, Receipt } from './entities.ts';

export interface RedactionTarget {
  /** receipts to redact by id (exact: what a family stored beside its rows, e.g. imprints.receipt_id) */
  ids?: string[];
  /** receipts to redact by public subject, e.g. `sovereign:3fa9` — beware: public tags collide */
  subjects?: string[];
  /** denial receipts whose private actor_ref is one of these raw ids lose the actor too */
  actorRefs?: string[];
  at: Date;
}

/**
 * Erasure's hook into the ledger (DESIGN.md: receipts are kept with their subject redacted).
 * Deletes the subject and its salt of the matching receipts inside the caller's transaction; the
 * salted digest, the leaf, every inclusion proof and every anchor stay valid, and the receipt then
 * reads `subject: "redacted"`, `subject_redacted: true`. Denials of the erased actor lose their
 * private actor columns. Returns how many receipts were redacted now (already redacted ones are not
 * counted again). Idempotent.
 */
export async function redactReceiptSubjects(tx: Sql, target: RedactionTarget): Promise<number> {
  const ids = (target.ids ?? []).filter((x) => typeof x === 'string');
  const subjects = (target.subjects ?? []).filter((x) => typeof x === 'string');
  const actorRefs = (target.actorRefs ?? []).filter((x) => typeof x === 'string');
  const at = target.at.toISOString();
  let redacted = 0;
  if (actorRefs.length) {
    // Raw: erasure's invariant, one statement that clears and names what it cleared.
    const denied = await tx.query<Pick<RowOf<typeof Denial>, 'receipt_id'>>(
      `update denials set actor_ref = null, actor_public = null, actor_kind = null where actor_ref = any($1::text[]) returning receipt_id`,
      [actorRefs],
    );
    ids.push(...denied.map((d) => d.receipt_id));
  }
  if (ids.length || subjects.length) {
    const rows = await tx.query<Pick<RowOf<typeof Receipt>, 'id'>>(
      `update receipts set subject = null, subject_salt = null, subject_redacted_at = $3
       where subject_redacted_at is null and (id = any($1::text[]) or subject = any($2::text[])) returning id`,
      [ids, subjects, at],
    );
    redacted = rows.length;
  }
  return redacted;
}
