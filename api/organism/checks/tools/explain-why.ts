/** MCP tool civitas_why (GET /api/why/{entity}): Why is it so. */
import { twinInput } from '../../../tool-twin.ts';
import { defineTool, READS } from '../../../tool.ts';
import { whyView } from '../why.ts';

export const explainWhy = defineTool({
  name: 'civitas_why',
  title: 'Why is it so',
  description:
    'The reasons an entity is in its current state, from stored data: `imprint:<sequence>` (retained or evicted, held, unattested and why), `agent:<handle>` (level and what is missing), `receipt:<id>` (which log day, sealed or not), `order:<id>` (each step of its lifecycle with its receipt). Same projection as GET /api/why/{entity}.',
  inputSchema: twinInput('GET /api/why/{entity}'),
  annotations: READS,
  twin: 'GET /api/why/{entity}',
  handler: async ({ entity }, ctx) => whyView(ctx, entity),
});
