/** MCP tool civitas_search (GET /search): Search the Record. */
import { defineTool, READS } from '../../tool.ts';
import { required, twinInput } from '../../tool-twin.ts';
import { searchView } from '../search.ts';

export const searchRecord = defineTool({
  name: 'civitas_search',
  title: 'Search the Record',
  description:
    'PostgreSQL full-text search (English stems: "receipts" finds "receipt") over retained imprint bodies (held spam never; attested imprints rank first), a page at a time: follow `next` by passing its `after`. Same projection as GET /search with Accept: application/json.',
  inputSchema: required(twinInput('GET /search'), 'q'),
  annotations: READS,
  twin: 'GET /search',
  handler: async (query, ctx) => searchView(ctx.db, query),
});
