/** MCP tool civitas_commons (GET /commons): Commons graph. */
import { defineTool, READS } from '../../tool.ts';
import { commonsView } from '../commons.ts';

export const getCommons = defineTool({
  name: 'civitas_commons',
  title: 'Commons graph',
  description:
    'The commons: who is here now as groups (humans, agents). Sovereigns who made their callsign visible are listed by public ref; everyone else is one placeholder count that reads "fewer than 5" under 5. Plus current Confluences. Same projection as GET /commons with Accept: application/json.',
  inputSchema: {},
  annotations: READS,
  twin: 'GET /commons',
  handler: async (_args, ctx) => commonsView(ctx),
});
