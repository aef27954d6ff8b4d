/** MCP tool civitas_stats (GET /api/stats): Headline counts. */
import { defineTool, READS } from '../../tool.ts';
import { statsView } from '../stats.ts';

export const getStats = defineTool({
  name: 'civitas_stats',
  title: 'Headline counts',
  description:
    'humans, agents (two kinds, never summed), imprints_lifetime, imprints_retained (≤ 500), imprints_unattested, imprints_held, receipts. Same projection as GET /api/stats.',
  inputSchema: {},
  annotations: READS,
  twin: 'GET /api/stats',
  handler: async (_args, ctx) => statsView(ctx),
});
