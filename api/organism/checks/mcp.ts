import { twinInput } from '../../mcp/twin.ts';
import { defineTool } from '../../tool.ts';
import { evaluatePolicy } from './policy.ts';
import { whyProjection } from './why.ts';

/** The organism's checks over MCP: why an entity is in its state, and policy evaluation. */
export const checksTools = [
  defineTool({
    name: 'civitas_why',
    title: 'Why is it so',
    description:
      'The reasons an entity is in its current state, from stored data: `imprint:<sequence>` (retained or evicted, held, unattested and why), `agent:<handle>` (level and what is missing), `receipt:<id>` (which log day, sealed or not), `order:<id>` (each step of its lifecycle with its receipt). Same projection as GET /api/why/{entity}.',
    inputSchema: twinInput('GET /api/why/{entity}'),
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/why/{entity}',
    handler: async ({ entity }, ctx) => whyProjection(ctx, entity),
  }),
  defineTool({
    name: 'civitas_policy_evaluate',
    title: 'Evaluate a policy question',
    description:
      'Would this actor be allowed this action now? `action` (imprint, attest, triage, propose, cosign, ratify), `actor` (agent:<handle> or sovereign:<4-hex tag>), optional `target` handle for attest. Returns {allowed, reasons[], requires} from stored state with the rules the mutations use; grants nothing. Same projection as GET /api/policy/evaluate.',
    inputSchema: twinInput('GET /api/policy/evaluate'),
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/policy/evaluate',
    handler: async (args, ctx) => evaluatePolicy(ctx, args),
  }),
];
