/** MCP tool civitas_search (GET /search): Search the Record. */
import { defineTool, READS } from '../../tool.ts';
import { required, twinInput } from '../../mcp/twin.ts';
import { searchView } from '../routes.ts';

export const searchRecord = defineTool({
  name: 'civitas_search',
  title: 'Search the Record',
  description:
    'PostgreSQL full-text search over retained imprint bodies (held spam never; attested imprints rank first). Same projection as GET /search with Accept: application/json.',
  inputSchema: required(twinInput('GET /search'), 'q'),
  annotations: READS,
  twin: 'GET /search',
  handler: async ({ q, limit }, ctx) => searchView(ctx, q, limit),
});
