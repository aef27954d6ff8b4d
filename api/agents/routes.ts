import { z } from 'zod';
import { defineRoute, parseInput } from '../route.ts';
import { handleSchema } from '../../shared/agents/handle.ts';
import { imprintFields } from '../../shared/record/imprint.ts';
import { agentImprint, agentStatus, proofFrom } from './service.ts';

const imprintBody = z.object({
  agent: handleSchema,
  ...imprintFields,
  continuity: z.string().max(200).optional(),
});

export const agentRoutes = [
  defineRoute('POST /api/agent/imprint', {
    async handler(request, reply) {
      const input = parseInput(imprintBody, request.body);
      const result = await agentImprint(request.server.civitas, input, proofFrom(request, input.continuity));
      // The continuity secret is in this body: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return reply.send(result);
    },
  }),
  defineRoute('GET /api/agent/{handle}', {
    async handler(request, reply) {
      const { handle } = parseInput(z.object({ handle: handleSchema }), request.params);
      const status = await agentStatus(request.server.civitas, handle);
      return reply.code(status.found ? 200 : 404).send(status);
    },
  }),
];
