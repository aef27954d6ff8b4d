import { defineTool } from '../tool.ts';
import { twinInput } from '../mcp/twin.ts';
import { receiptDocument, verificationDocument } from './projection.ts';

export const ledgerTools = [
  defineTool({
    name: 'civitas_receipt',
    title: 'Receipt',
    description:
      'A receipt by id: step, public subject (or "redacted"), time, leaf hash, log position, and the requested change\'s own status beside it (a receipt proves the step was recorded, not that the change was applied). Same projection as GET /api/receipt/{id}.',
    inputSchema: twinInput('GET /api/receipt/{id}'),
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/receipt/{id}',
    handler: async (args, ctx) => receiptDocument(ctx, args.id),
  }),
  defineTool({
    name: 'civitas_verify',
    title: 'Verify a receipt',
    description:
      "Verifies a receipt: its subject digest and leaf hash, its RFC 9162 inclusion proof in its UTC day's tree, and once the day is sealed the signed anchor and C2SP checkpoint. Returns the proof and each check so you can re-run them yourself. Same projection as GET /verify/{id}.",
    inputSchema: twinInput('GET /verify/{id}'),
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /verify/{id}',
    handler: async (args, ctx) => verificationDocument(ctx, args.id),
  }),
];
