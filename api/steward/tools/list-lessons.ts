/** MCP tool civitas_lessons (GET /api/hive/lessons): Lessons. */
import { defineTool, READS } from '../../tool.ts';
import { twinInput } from '../../tool-twin.ts';
import { lessonsView } from '../lessons.ts';

export const listLessons = defineTool({
  name: 'civitas_lessons',
  title: 'Lessons',
  description:
    'Lessons stewards distilled from non-quarantined imprints (held and unattested imprints never feed learning), newest first, each with its receipt id and source sequence numbers. Same projection as GET /api/hive/lessons.',
  inputSchema: twinInput('GET /api/hive/lessons'),
  annotations: READS,
  twin: 'GET /api/hive/lessons',
  handler: async ({ limit }, ctx) => lessonsView(ctx, { limit }),
});
