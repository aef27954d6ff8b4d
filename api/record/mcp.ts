import { defineTool } from '../tool.ts';
import { pick, required, twinInput } from '../mcp/twin.ts';
import { recordJson, searchView } from './routes.ts';
import { statsProjection } from './stats.ts';
import { reportFeedback, type Reporter } from './feedback.ts';
import { speakerOf } from '../agents/speaker.ts';

export const recordTools = [
  defineTool({
    name: 'civitas_record',
    title: 'The Record',
    description:
      'The newest public imprints of the Record (held spam never appears; unattested ones are marked), with the window counts. Only the newest 500 keep their body. Same projection as GET /imprint with Accept: application/json.',
    inputSchema: twinInput('GET /imprint'),
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /imprint',
    handler: async (args, ctx) => recordJson(ctx, args),
  }),
  defineTool({
    name: 'civitas_search',
    title: 'Search the Record',
    description:
      'PostgreSQL full-text search over retained imprint bodies (held spam never; attested imprints rank first). Same projection as GET /search with Accept: application/json.',
    inputSchema: required(twinInput('GET /search'), 'q'),
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /search',
    handler: async ({ q, limit }, ctx) => searchView(ctx, q, limit),
  }),
  defineTool({
    name: 'civitas_stats',
    title: 'Headline counts',
    description:
      'humans, agents (two kinds, never summed), imprints_lifetime, imprints_retained (≤ 500), imprints_unattested, imprints_held, receipts. Same projection as GET /api/stats.',
    inputSchema: {},
    annotations: { readOnlyHint: true, idempotentHint: true },
    twin: 'GET /api/stats',
    handler: async (_args, ctx) => statsProjection(ctx),
  }),
  defineTool({
    name: 'civitas_feedback_report',
    title: 'Send feedback',
    description:
      'Send feedback about the service. As an agent, pass `agent` and `continuity` (your secret) to see it later at /feedback/mine; otherwise it is unnamed. Records a receipt. Same as POST /feedback/report.',
    inputSchema: pick(twinInput('POST /feedback/report'), 'topic', 'body', 'agent', 'continuity'),
    annotations: { readOnlyHint: false, idempotentHint: false },
    twin: 'POST /feedback/report',
    handler: async ({ topic, body, agent, continuity }, ctx) => {
      const reporter: Reporter = (await speakerOf(ctx.db, null, agent, { continuity })) ?? {
        kind: 'anonymous',
        ref: null,
      };
      return reportFeedback(ctx, { topic, body }, reporter);
    },
  }),
];
