/** MCP tool civitas_boundaries (GET /api/boundaries): Boundary census. */
import { defineTool, READS } from '../../tool.ts';
import { liveCensus } from '../census.ts';
import { censusHost } from '../live-probes.ts';

export const proveBoundaries = defineTool({
  name: 'civitas_boundaries',
  title: 'Boundary census',
  description:
    'The 23 privacy boundaries re-proved live (civitas.boundary-census.v1): each row is active only if its projector just redacted a synthetic probe; header boundaries are probed against the running service. Same body as GET /api/boundaries.',
  inputSchema: {},
  annotations: READS,
  twin: 'GET /api/boundaries',
  handler: async (_args, ctx, app) => {
    if (!app) throw new Error('the boundary census needs the running app');
    return liveCensus(ctx, censusHost(app));
  },
});
