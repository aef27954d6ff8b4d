import { randomUUID } from 'node:crypto';
import { newId } from '../ids.ts';
import { Refusal } from '../../shared/errors.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { PERSONAL_DATA } from '../personal-data.ts';
import { ERASED_TAG, type ErasureSubject } from '../personal-data-contract.ts';
import type { SignedIn } from '../plugins/session.ts';
import { iso } from '../../shared/time.ts';
import type { RowOf } from '../db/rows.ts';
import { constant } from '../db/kysely.ts';
import type { DataRequest, Sovereign } from './entities.ts';

/**
 * Data rights (DESIGN.md section 5, identity): a person files an export or an erasure request;
 * a steward processes it. An erasure removes personal data and bodies, keeps counts and receipts,
 * and redacts the receipts' subjects. What an export holds, and the overview of what is held, are
 * in data-held.ts.
 */

export type DataRequestKind = 'export' | 'erasure';

export async function fileDataRequest(ctx: AppContext, signedIn: SignedIn, kind: DataRequestKind) {
  const id = newId('dr', ctx.clock.now());
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // One open request per kind: a repeated form post does not queue the same work twice.
    const [open] = await tx.kysely
      .selectFrom('data_requests')
      .select('id')
      .where('sovereign_id', '=', signedIn.sovereignId)
      .where('kind', '=', kind)
      .where('status', '=', constant('pending'))
      .forUpdate()
      .execute();
    if (open) {
      throw new Refusal(
        'conflict',
        { request_id: open.id },
        `You already have a pending ${kind} request; a steward will process it.`,
      );
    }
    const receipt = await recordReceipt(tx, {
      step: `identity.data_request.${kind}`,
      subject: `data_request:${id}`,
      at: now,
    });
    await tx.query(
      `insert into data_requests (id, sovereign_id, kind, status, created_at, receipt_id) values ($1, $2, $3, 'pending', $4, $5)
       on conflict do nothing`,
      [id, signedIn.sovereignId, kind, now.toISOString(), receipt.id],
    );
    const [stored] = await tx.kysely.selectFrom('data_requests').select('id').where('id', '=', id).execute();
    if (!stored)
      throw new Refusal(
        'conflict',
        {},
        `You already have a pending ${kind} request; a steward will process it.`,
      );
    return {
      ok: true as const,
      request: {
        id,
        kind,
        status: 'pending' as const,
        created_at: now.toISOString(),
        receipt_id: receipt.id,
      },
    };
  });
}

/**
 * Erasure, inside the steward's transaction (docs/identity.md, "Personal data"). An anonymous
 * member is made first — a fresh id no tag or key derives from, nothing personal, the same crossing
 * time — and every family's declaration then erases the person's words and moves what it keeps
 * (counted acts, payment records) onto that member; identity runs last and deletes the person's
 * sessions and row. Receipts stay, their subject redacted through the ledger's salted commitment,
 * so every proof still verifies.
 */
export async function eraseSovereign(
  tx: Sql,
  sovereignId: string,
  now: Date,
): Promise<{ receipts_redacted: number; imprints_cleared: number; rows: Record<string, number> }> {
  const [row] = await tx.kysely
    .selectFrom('sovereigns')
    .select(['tag', 'created_at'])
    .where('id', '=', sovereignId)
    .forUpdate()
    .execute();
  if (!row) throw new Refusal('not_found');
  const anonymousId = randomUUID();
  await tx.query(
    'insert into sovereigns (id, tag, callsign_visible, created_at, erased_at) values ($1, $2, false, $3, $4)',
    [anonymousId, ERASED_TAG, iso(row.created_at), now.toISOString()],
  );
  const subject: ErasureSubject = { id: sovereignId, tag: row.tag, ref: `sovereign:${row.tag}`, anonymousId };
  const rows: Record<string, number> = {};
  for (const family of PERSONAL_DATA) Object.assign(rows, await family.erase(tx, subject, now));
  return { receipts_redacted: rows.receipts ?? 0, imprints_cleared: rows.imprints ?? 0, rows };
}

export interface StewardQueueEntry {
  id: string;
  kind: DataRequestKind;
  status: string;
  requester: string;
  created_at: string;
  processed_at: string | null;
  processed_by: string | null;
  note: string | null;
  receipt_id: string;
}

/** `/steward/data-requests`: pending requests first (oldest first), then the latest processed. */
export async function stewardQueue(ctx: AppContext) {
  // Raw: two ordered, limited branches in one union (Kysely does not parenthesize union branches).
  const rows = await ctx.db.query<
    Pick<
      RowOf<typeof DataRequest>,
      'id' | 'kind' | 'status' | 'created_at' | 'processed_at' | 'processed_by' | 'note' | 'receipt_id'
    > &
      Pick<RowOf<typeof Sovereign>, 'tag' | 'erased_at'>
  >(
    `(select r.id, r.kind, r.status, s.tag, s.erased_at, r.created_at, r.processed_at, r.processed_by, r.note, r.receipt_id
        from data_requests r join sovereigns s on s.id = r.sovereign_id where r.status = 'pending' order by r.created_at asc limit 200)
     union all
     (select r.id, r.kind, r.status, s.tag, s.erased_at, r.created_at, r.processed_at, r.processed_by, r.note, r.receipt_id
        from data_requests r join sovereigns s on s.id = r.sovereign_id where r.status <> 'pending' order by r.processed_at desc limit 50)`,
  );
  const entries = rows.map((r): StewardQueueEntry => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    requester: r.erased_at
      ? 'redacted'
      : projectActorRef({ actor_id: '', kind: 'sovereign', tag: r.tag }).ref,
    created_at: iso(r.created_at)!,
    processed_at: iso(r.processed_at),
    processed_by: r.processed_by,
    note: r.note,
    receipt_id: r.receipt_id,
  }));
  return {
    ok: true as const,
    schema: 'civitas.data-requests.v1' as const,
    pending: entries.filter((e) => e.status === 'pending'),
    processed: entries.filter((e) => e.status !== 'pending'),
    actions: {
      process: {
        method: 'POST',
        href: '/steward/data-requests',
        fields: { id: 'dr_…', action: ['complete', 'decline'], note: 'optional, shown to the requester' },
      },
    },
  };
}

/** A steward completes or declines one pending request. Completing an erasure erases, in the same transaction. */
export async function processDataRequest(
  ctx: AppContext,
  steward: SignedIn,
  input: { id: string; action: 'complete' | 'decline'; note?: string | null },
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [request] = await tx.kysely
      .selectFrom('data_requests')
      .select(['id', 'kind', 'status', 'sovereign_id'])
      .where('id', '=', input.id)
      .forUpdate()
      .execute();
    if (!request)
      throw new Refusal('not_found', { request_id: input.id.slice(0, 40) }, 'No data request has that id.');
    if (request.status !== 'pending')
      throw new Refusal('conflict', { status: request.status }, 'This request was already processed.');
    let erased: { receipts_redacted: number; imprints_cleared: number } | undefined;
    if (input.action === 'complete' && request.kind === 'erasure')
      erased = await eraseSovereign(tx, request.sovereign_id, now);
    const status = input.action === 'complete' ? 'completed' : 'declined';
    await tx.query(
      'update data_requests set status = $2, processed_at = $3, processed_by = $4, note = $5 where id = $1',
      [request.id, status, now.toISOString(), `sovereign:${steward.tag}`, input.note ?? null],
    );
    const receipt = await recordReceipt(tx, {
      step: `identity.data_request.${status}`,
      subject: `data_request:${request.id}`,
      at: now,
    });
    return {
      ok: true as const,
      request: { id: request.id, kind: request.kind, status },
      erased: erased ?? null,
      receipt_id: receipt.id,
    };
  });
}
