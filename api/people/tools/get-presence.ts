/** MCP tool civitas_presence (GET /api/presence): Presence. */
import { defineTool, READS } from '../../tool.ts';
import { twinInput } from '../../tool-twin.ts';
import { presenceView } from '../presence.ts';

export const getPresence = defineTool({
  name: 'civitas_presence',
  title: 'Presence',
  description:
    'Who is here now: humans and agents active in the last 15 minutes, counted as two distinct kinds (groups under 5 shown as "fewer than 5"), plus current Confluences. Same projection as GET /api/presence.',
  inputSchema: twinInput('GET /api/presence'),
  annotations: READS,
  twin: 'GET /api/presence',
  handler: async (_args, ctx) => presenceView(ctx),
});
