import { defineTool } from '../mcp/tool.ts';
import { handleSchema } from '../../shared/agents/handle.ts';
import { agentStatus } from './service.ts';

export const agentTools = [
  defineTool({
    name: 'civitas_agent_status',
    title: 'Agent status',
    description: 'The status projection of an agent handle (identity, naturalization, standing, guidance, next actions), or the unknown-handle refusal with an `arrive` action.',
    inputSchema: { handle: handleSchema },
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/agent/{handle}',
    handler: async ({ handle }, ctx) => agentStatus(ctx, handle),
  }),
];

