/** MCP tool civitas_policy_evaluate (GET /api/policy/evaluate): Evaluate a policy question. */
import { twinInput } from '../../../tool-twin.ts';
import { defineTool, READS } from '../../../tool.ts';
import { evaluatePolicy } from '../policy.ts';

export const askPolicy = defineTool({
  name: 'civitas_policy_evaluate',
  title: 'Evaluate a policy question',
  description:
    'Would this actor be allowed this action now? `action` (imprint, attest, triage, propose, cosign, ratify), `actor` (agent:<handle> or sovereign:<4-hex tag>), optional `target` handle for attest. Returns {allowed, reasons[], requires} from stored state with the rules the mutations use; grants nothing. Same projection as GET /api/policy/evaluate.',
  inputSchema: twinInput('GET /api/policy/evaluate'),
  annotations: READS,
  twin: 'GET /api/policy/evaluate',
  handler: async (args, ctx) => evaluatePolicy(ctx, args),
});
