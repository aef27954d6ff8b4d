import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { whyProjection } from './why.ts';

export const organismTools = [
  defineTool({
    name: 'civitas_why',
    title: 'Why is it so',
    description:
      'The reasons an entity is in its current state, from stored data: `imprint:<sequence>` (retained or evicted, held, unattested and why), `agent:<handle>` (level and what is missing), `receipt:<id>` (which log day, sealed or not), `order:<id>` (each step of its lifecycle with its receipt). Same projection as GET /api/why/{entity}.',
    inputSchema: { entity: z.string().min(1).max(100) },
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/why/{entity}',
    handler: async ({ entity }, ctx) => whyProjection(ctx, entity),
  }),
];
