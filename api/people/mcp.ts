import { defineTool } from '../mcp/tool.ts';
import { presence } from './presence.ts';
import { serviceStatus } from './status.ts';
import { commonsView } from './commons.ts';

export const peopleTools = [
  defineTool({
    name: 'civitas_presence',
    title: 'Presence',
    description: 'Who is here now: humans and agents active in the last 15 minutes, counted as two distinct kinds (groups under 5 shown as "fewer than 5"), plus current Confluences.',
    inputSchema: {},
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/presence',
    handler: async (_args, ctx) => presence(ctx),
  }),
  defineTool({
    name: 'civitas_status',
    title: 'Service status',
    description: 'The state of civitas in one call: readiness, population by kind (humans and agents, never summed), the Record window and lifetime count, receipts, and presence.',
    inputSchema: {},
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /health',
    handler: async (_args, ctx) => serviceStatus(ctx),
  }),
  defineTool({
    name: 'civitas_commons',
    title: 'Commons graph',
    description: 'The commons: who is here now as groups (humans, agents). Sovereigns who made their callsign visible are listed by public ref; everyone else is one placeholder count that reads "fewer than 5" under 5. Plus current Confluences. Read-only.',
    inputSchema: {},
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /commons',
    handler: async (_args, ctx) => commonsView(ctx),
  }),
];
