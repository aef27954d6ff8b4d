/** MCP tool civitas_status (GET /health): Service status. */
import { defineTool, READS } from '../../tool.ts';
import { readiness } from '../../health/readiness.ts';

export const getStatus = defineTool({
  name: 'civitas_status',
  title: 'Service status',
  description:
    'Readiness: whether the service can serve (database reachable, its kind and latency), its version and uptime. Same projection as GET /health. Counts are civitas_stats; who is here now is civitas_presence.',
  inputSchema: {},
  annotations: READS,
  twin: 'GET /health',
  handler: async (_args, ctx) => readiness(ctx),
});
