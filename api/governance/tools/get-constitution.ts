/** MCP tool civitas_constitution (GET /api/constitution): Constitution. */
import { defineTool, READS } from '../../tool.ts';
import { constitutionView } from '../service.ts';

export const getConstitution = defineTool({
  name: 'civitas_constitution',
  title: 'Constitution',
  description:
    'The constitution: ratified articles and open proposals with their cosign (3 needed) and ratification (2 needed, by sovereigns carrying a human-uniqueness receipt) counts; signers by public tag only. Same projection as GET /api/constitution, read anonymously.',
  inputSchema: {},
  annotations: READS,
  twin: 'GET /api/constitution',
  handler: async (_args, ctx) => constitutionView(ctx, null),
});
