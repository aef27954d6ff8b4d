/**
 * Withdrawing a data request: its owner may take back an export or erasure request while it is
 * pending, so an erasure asked for by mistake never reaches a steward's "erase". Once a steward
 * acted, nothing is withdrawn. The request stays on file as `withdrawn`, with its own receipt.
 */
import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import type { SignedIn } from '../plugins/session.ts';

export async function withdrawDataRequest(ctx: AppContext, owner: SignedIn, id: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // Someone else's request is answered like an unknown one: ids are not probed through this door.
    const [request] = await tx.kysely
      .selectFrom('data_requests')
      .select(['id', 'kind', 'status', 'created_at'])
      .where('id', '=', id)
      .where('sovereign_id', '=', owner.sovereignId)
      .forUpdate()
      .execute();
    if (!request)
      throw new Refusal('not_found', { withdraw: id.slice(0, 64) }, 'You have no data request with that id.');
    if (request.status !== 'pending')
      throw new Refusal(
        'conflict',
        { status: request.status },
        'A steward already acted on this request; it can no longer be withdrawn.',
      );
    await tx.query(
      `update data_requests set status = 'withdrawn', processed_at = $2, processed_by = $3 where id = $1`,
      [request.id, now.toISOString(), `sovereign:${owner.tag}`],
    );
    const receipt = await recordReceipt(tx, {
      step: 'identity.data_request.withdrawn',
      subject: `data_request:${request.id}`,
      at: now,
    });
    return {
      ok: true as const,
      request: {
        id: request.id,
        kind: request.kind,
        status: 'withdrawn' as const,
        created_at: new Date(request.created_at).toISOString(),
        receipt_id: receipt.id,
      },
    };
  });
}
