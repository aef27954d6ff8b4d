import { z } from 'zod';
import { defineTool } from '../mcp/tool.ts';
import { Refusal } from '../../shared/errors.ts';
import { receiptById } from './log.ts';
import { RECEIPT_ID, receiptView, verificationView } from './projection.ts';
import type { AppContext } from '../context.ts';

const id = z.string().regex(RECEIPT_ID, 'id must be rcpt_ followed by a 26-character ULID').describe('receipt id, e.g. rcpt_01JD…');

async function rowOf(ctx: AppContext, receiptId: string) {
  const row = await receiptById(ctx.db, receiptId);
  if (!row) throw new Refusal('not_found', { id: receiptId }, 'No receipt is recorded under that id.');
  return row;
}

export const ledgerTools = [
  defineTool({
    name: 'civitas_receipt',
    title: 'Receipt',
    description: 'A receipt by id: step, public subject (or "redacted"), time, leaf hash, log position, and the requested change\'s own status beside it (a receipt proves the step was recorded, not that the change was applied).',
    inputSchema: { id },
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/receipt/{id}',
    handler: async (args, ctx) => ({ ok: true, ...(await receiptView(ctx, await rowOf(ctx, args.id))) }),
  }),
  defineTool({
    name: 'civitas_verify',
    title: 'Verify a receipt',
    description: "Verifies a receipt: its subject digest and leaf hash, its RFC 9162 inclusion proof in its UTC day's tree, and once the day is sealed the signed anchor and C2SP checkpoint. Returns the proof and each check so you can re-run them yourself.",
    inputSchema: { id },
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /verify/{id}',
    handler: async (args, ctx) => verificationView(ctx, await rowOf(ctx, args.id)),
  }),
];
