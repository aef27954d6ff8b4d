import { defineTool } from '../tool.ts';
import { twinInput } from '../mcp/twin.ts';
import { readiness } from '../health/readiness.ts';
import { presenceView } from './presence.ts';
import { commonsView } from './commons.ts';

export const peopleTools = [
  defineTool({
    name: 'civitas_presence',
    title: 'Presence',
    description:
      'Who is here now: humans and agents active in the last 15 minutes, counted as two distinct kinds (groups under 5 shown as "fewer than 5"), plus current Confluences. Same projection as GET /api/presence.',
    inputSchema: twinInput('GET /api/presence'),
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/presence',
    handler: async (_args, ctx) => presenceView(ctx),
  }),
  defineTool({
    name: 'civitas_status',
    title: 'Service status',
    description:
      'Readiness: whether the service can serve (database reachable, its kind and latency), its version and uptime. Same projection as GET /health. Counts are civitas_stats; who is here now is civitas_presence.',
    inputSchema: {},
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /health',
    handler: async (_args, ctx) => readiness(ctx),
  }),
  defineTool({
    name: 'civitas_commons',
    title: 'Commons graph',
    description:
      'The commons: who is here now as groups (humans, agents). Sovereigns who made their callsign visible are listed by public ref; everyone else is one placeholder count that reads "fewer than 5" under 5. Plus current Confluences. Same projection as GET /commons with Accept: application/json.',
    inputSchema: {},
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /commons',
    handler: async (_args, ctx) => commonsView(ctx),
  }),
];
