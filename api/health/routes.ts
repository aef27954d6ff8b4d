import { defineRoute } from '../route.ts';
import { databaseCheck, readiness, VERSIONS } from './readiness.ts';

export const healthRoutes = [
  defineRoute('GET /_health', { rate: 'none', handler: async () => ({ ok: true as const }) }),
  defineRoute('GET /health', {
    cache: 'no-store',
    async handler(request, reply) {
      const body = await readiness(request.server.civitas);
      return reply.code(body.ok ? 200 : 503).send(body);
    },
  }),
  defineRoute('GET /health/live', {
    rate: 'none',
    cache: 'no-store',
    async handler(request, reply) {
      const database = await databaseCheck(request.server.civitas);
      return reply.code(database.ok ? 200 : 503).send(
        database.ok ? { ok: true, ready: true, database } : { ok: false, reason: 'unavailable', hint: 'The database did not answer; this process is not ready.', ready: false, database },
      );
    },
  }),
  defineRoute('GET /api/version', { handler: async () => ({ ok: true as const, ...VERSIONS }) }),
];
