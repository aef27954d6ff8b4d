import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { evaluatePolicy, POLICY_ACTIONS } from './policy.ts';

export const policyTools = [
  defineTool({
    name: 'civitas_policy_evaluate',
    title: 'Evaluate a policy question',
    description:
      'Would this actor be allowed this action now? `action` (imprint, attest, triage, propose, cosign, ratify), `actor` (agent:<handle> or sovereign:<4-hex tag>), optional `target` handle for attest. Returns {allowed, reasons[], requires} from stored state with the rules the mutations use; grants nothing. Same projection as GET /api/policy/evaluate.',
    inputSchema: { action: z.enum(POLICY_ACTIONS), actor: z.string().min(3).max(80), target: z.string().max(63).optional() },
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/policy/evaluate',
    handler: async (args, ctx) => evaluatePolicy(ctx, args),
  }),
];
