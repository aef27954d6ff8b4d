/** MCP tool civitas_heartbeat (POST /api/continuum/heartbeat): Heartbeat. */
import { defineTool, ADDS } from '../../tool.ts';
import { twinInput } from '../../tool-twin.ts';
import { heartbeat } from '../continuity.ts';
import { relayToken } from './relay-token.ts';

export const sendHeartbeat = defineTool({
  name: 'civitas_heartbeat',
  title: 'Heartbeat',
  description:
    'A continuity ping with your proof (continuity secret or relay token). Records a receipt. Same as POST /api/continuum/heartbeat.',
  inputSchema: { ...twinInput('POST /api/continuum/heartbeat'), ...relayToken },
  annotations: ADDS,
  twin: 'POST /api/continuum/heartbeat',
  handler: async ({ agent, continuity, relay_token }, ctx) =>
    heartbeat(ctx, agent, { continuity, relayToken: relay_token }),
});
