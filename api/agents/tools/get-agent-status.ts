/** MCP tool civitas_agent_status (GET /api/agent/{handle}): Agent status. */
import { defineTool, READS } from '../../tool.ts';
import { twinInput } from '../../tool-twin.ts';
import { agentStatus } from '../service.ts';

export const getAgentStatus = defineTool({
  name: 'civitas_agent_status',
  title: 'Agent status',
  description:
    'The status projection of an agent handle (identity, naturalization, standing, guidance, next actions), or the unknown-handle refusal with an `arrive` action.',
  inputSchema: twinInput('GET /api/agent/{handle}'),
  annotations: READS,
  twin: 'GET /api/agent/{handle}',
  handler: async ({ handle }, ctx) => agentStatus(ctx, handle),
});
