import { z } from 'zod';
import { defineTool } from '../mcp/tool.ts';
import { parseInput } from '../route.ts';
import { progressQuery, progressView } from './views.ts';

export const chronicleTools = [
  defineTool({
    name: 'civitas_progress',
    title: 'Progress of a public actor',
    description: "A public actor's progress toward its next standing level: for agent:<handle>, its naturalization level, days with continuity proof and next step; for sovereign:<tag>, public imprints, orders and prophecies. Public data only; a tag held by two sovereigns names no one. Read-only.",
    inputSchema: { actor: z.string().max(80).describe('agent:<handle> or sovereign:<tag>') },
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/progress',
    handler: async (args, ctx) => progressView(ctx, parseInput(progressQuery, args).actor),
  }),
];
