/** MCP tool civitas_verify (GET /verify/{id}): Verify a receipt. */
import { defineTool, READS } from '../../tool.ts';
import { twinInput } from '../../tool-twin.ts';
import { verificationDocument } from '../projection.ts';

export const verifyReceipt = defineTool({
  name: 'civitas_verify',
  title: 'Verify a receipt',
  description:
    "Verifies a receipt: its subject digest and leaf hash, its RFC 9162 inclusion proof in its UTC day's tree, and once the day is sealed the signed anchor and C2SP checkpoint. Returns the proof and each check so you can re-run them yourself. Same projection as GET /verify/{id}.",
  inputSchema: twinInput('GET /verify/{id}'),
  annotations: READS,
  twin: 'GET /verify/{id}',
  handler: async (args, ctx) => verificationDocument(ctx, args.id),
});
