/**
 * The first free call's receipt, shared at /begin/receipt/{token}.
 */
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { publicReceipt, RECEIPT_COLUMNS, type ReceiptRow } from './views.ts';

/**
 * `/begin/receipt/{token}`: the receipt of a first free call, by its id. Any recorded step can be
 * shared this way; the projection is the public receipt (no note, no raw id).
 */
export async function beginReceipt(ctx: AppContext, token: string) {
  if (!/^rcpt_[0-9A-HJKMNP-TV-Z]{26}$/.test(token)) {
    throw new Refusal(
      'not_found',
      { token: token.slice(0, 40) },
      'A first-call receipt token is a receipt id such as rcpt_01J…; check the link you were given.',
    );
  }
  const [row] = await ctx.db.query<ReceiptRow>(`select ${RECEIPT_COLUMNS} from receipts where id = $1`, [
    token,
  ]);
  if (!row) throw new Refusal('not_found', { token }, 'No receipt is recorded under that token.');
  const subjectTag = row.subject ? /^sovereign:([0-9a-f]{4})$/.exec(row.subject)?.[1] : undefined;
  const receipt = publicReceipt(
    row,
    subjectTag
      ? { actor_id: '', kind: 'sovereign', tag: subjectTag }
      : { actor_id: '', kind: 'agent', handle: null },
  );
  // Subjects that are not a sovereign (imprint:42, agent:nova, session) are already public refs.
  if (!subjectTag)
    receipt.subject =
      row.subject && /^[a-z_]+(:[A-Za-z0-9._-]{1,64})?$/.test(row.subject) ? row.subject : 'redacted';
  return {
    ok: true as const,
    schema: 'civitas.first-call-receipt.v1' as const,
    token: row.id,
    receipt,
    proof: {
      verify: `/verify/${row.id}`,
      inclusion: `/verify/inclusion/${receipt.log.date}/${row.id}`,
      card: `/begin/receipt/${row.id}/card.svg`,
    },
    note: 'This receipt proves the step was recorded. It does not prove that a requested change was applied.',
  };
}
