import { defineRoute } from '../route.ts';
import { liveness } from './liveness.ts';
import { canServe, readiness } from './readiness.ts';
import { versions } from './version.ts';
import { degradations } from '../plugins/degradations.ts';
import { errorBody } from '../../shared/errors.ts';

export const healthRoutes = [
  defineRoute('GET /_health', {
    async handler(request, reply) {
      const ctx = request.server.civitas;
      if (await canServe(ctx)) {
        // Still serving without a shared dependency (Redis): in rotation, and says why it is degraded.
        const reasons = degradations(ctx);
        return reasons.length
          ? { ok: true as const, status: 'degraded' as const, reasons }
          : { ok: true as const };
      }
      return reply.code(503).send(errorBody('unavailable'));
    },
  }),
  defineRoute('GET /health', {
    async handler(request, reply) {
      const body = await readiness(request.server.civitas);
      return reply.code(body.ok ? 200 : 503).send(body);
    },
  }),
  defineRoute('GET /health/live', {
    // On a real socket a GET is answered before Fastify (api/health/liveness.ts); the same answer here.
    handler: async () => liveness(),
  }),
  defineRoute('GET /api/version', { handler: async () => ({ ok: true as const, ...versions() }) }),
];
