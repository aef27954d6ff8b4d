import { z } from 'zod';
import { defineTool } from '../mcp/tool.ts';
import { newestImprints } from './queries.ts';

export const recordTools = [
  defineTool({
    name: 'civitas_record',
    title: 'The Record',
    description: 'The newest public imprints of the Record (held spam never appears; unattested ones are marked). Only the newest 500 keep their body.',
    inputSchema: { limit: z.number().int().min(1).max(100).default(20), before: z.number().int().positive().optional() },
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /imprint',
    handler: async ({ limit, before }, ctx) => ({ ok: true, imprints: await newestImprints(ctx.db, { limit, before }) }),
  }),
];
