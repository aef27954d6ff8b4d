/** MCP tool civitas_receipt (GET /api/receipt/{id}): Receipt. */
import { defineTool, READS } from '../../tool.ts';
import { twinInput } from '../../tool-twin.ts';
import { receiptDocument } from '../projection.ts';

export const getReceipt = defineTool({
  name: 'civitas_receipt',
  title: 'Receipt',
  description:
    'A receipt by id: step, public subject (or "redacted"), time, leaf hash, log position, and the requested change\'s own status beside it (a receipt proves the step was recorded, not that the change was applied). Same projection as GET /api/receipt/{id}.',
  inputSchema: twinInput('GET /api/receipt/{id}'),
  annotations: READS,
  twin: 'GET /api/receipt/{id}',
  handler: async (args, ctx) => receiptDocument(ctx, args.id),
});
