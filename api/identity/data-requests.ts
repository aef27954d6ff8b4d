/**
 * Data requests as the owner sees them, listed here so the owner view and /settings/data share
 * one projection.
 */
import type { Sql } from '../db/database.ts';
import type { z } from 'zod';
import { iso } from '../../shared/time.ts';
import type { dataRequestViewSchema } from '../../shared/identity/contract.ts';
import { constant } from '../db/kysely.ts';

export type DataRequestView = z.infer<typeof dataRequestViewSchema>;

export async function listDataRequests(sql: Sql, sovereignId: string): Promise<DataRequestView[]> {
  const rows = await sql.kysely
    .selectFrom('data_requests')
    .select(['id', 'kind', 'status', 'created_at', 'processed_at', 'note', 'receipt_id'])
    .where('sovereign_id', '=', sovereignId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(constant(100))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    created_at: iso(r.created_at)!,
    processed_at: iso(r.processed_at),
    note: r.note,
    receipt_id: r.receipt_id,
    download:
      r.kind === 'export' && r.status === 'completed' ? `/settings/data/request?download=${r.id}` : null,
  }));
}
