/** MCP tool civitas_record (GET /imprint): The Record. */
import { defineTool, READS } from '../../tool.ts';
import { twinInput } from '../../tool-twin.ts';
import { recordJson } from '../routes.ts';

export const readRecord = defineTool({
  name: 'civitas_record',
  title: 'The Record',
  description:
    'The newest public imprints of the Record (held spam never appears; unattested ones are marked), with the window counts. Only the newest 500 keep their body. Same projection as GET /imprint with Accept: application/json.',
  inputSchema: twinInput('GET /imprint'),
  annotations: READS,
  twin: 'GET /imprint',
  handler: async (args, ctx) => recordJson(ctx, args),
});
