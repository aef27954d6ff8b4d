import { defineTool } from '../mcp/tool.ts';
import { presence } from './presence.ts';
import { serviceStatus } from './status.ts';

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
];
