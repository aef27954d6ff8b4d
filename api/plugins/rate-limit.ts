import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal } from '../../shared/errors.ts';
import type { RateClass } from '../route.ts';
import { watchDegradation } from './degradations.ts';
import { sharedCounters } from './rate-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** A validated actor (set by the session and agent-credential checks); else the client address is used. */
    actorKey?: string;
  }
  interface FastifyContextConfig {
    rateClass?: RateClass;
  }
  interface FastifyInstance {
    /** Spends one write from the caller's budget (for writes inside a read-class route, e.g. MCP tools); refuses with 429. */
    chargeWrite(request: FastifyRequest): Promise<void>;
  }
}

export interface RateLimitOptions {
  readsPerMin: number;
  writesPerMin: number;
  redisUrl?: string;
}

/** Set while chargeWrite runs, so the shared limiter counts this request as a write. */
const chargingWrite = new WeakSet<FastifyRequest>();

function rateClassOf(request: FastifyRequest): RateClass {
  if (chargingWrite.has(request)) return 'write';
  return request.routeOptions.config?.rateClass ?? (request.method === 'POST' ? 'write' : 'read');
}

/**
 * Per-actor budgets: reads and writes counted apart (DESIGN.md section 6). Keys use only what
 * cannot be forged cheaply: a validated actor, else the client address. Shared across
 * processes through Redis when REDIS_URL is set; otherwise per process.
 *
 * Per request the class is read once (in the key, `read:…`/`write:…`); routes of class `none`
 * (liveness, assets) get no limiter hook at all, so they pay nothing for it.
 */
async function limits(app: FastifyInstance, options: RateLimitOptions) {
  // Shared through Redis while it answers, per process while it does not (api/plugins/rate-store.ts).
  const nameSpace = 'civitas-rate:';
  const counters = options.redisUrl ? sharedCounters(options.redisUrl, nameSpace, app.log) : undefined;
  if (counters) {
    watchDegradation(app.civitas, counters.degraded);
    app.addHook('onClose', async () => void counters.redis.disconnect());
  }
  // Before the limiter's own onRoute hook, which skips a route whose config says `rateLimit: false`.
  app.addHook('onRoute', (route) => {
    if (route.config?.rateClass === 'none') route.config = { ...route.config, rateLimit: false };
  });
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    timeWindow: 60_000,
    ...(counters ? { store: counters.Store } : {}),
    nameSpace,
    allowList: (request, key) => request.actorKey === 'internal' || key.startsWith('none:'),
    max: (_request, key) => (key.startsWith('write:') ? options.writesPerMin : options.readsPerMin),
    keyGenerator: (request) => `${rateClassOf(request)}:${request.actorKey ?? request.ip}`,
    addHeaders: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
      'retry-after': true,
    },
    errorResponseBuilder: (_request, context) =>
      new Refusal('rate_limited', { retry_after: Math.max(1, Math.ceil(context.ttl / 1000)) }),
  });
  // The global limiter itself (same store, key and budget), asked to count this request as a write.
  const limiter = app.createRateLimit();
  app.decorate('chargeWrite', async (request: FastifyRequest) => {
    if (request.actorKey === 'internal') return;
    chargingWrite.add(request);
    try {
      const outcome = await limiter(request);
      if (!outcome.isAllowed && outcome.isExceeded) {
        throw new Refusal('rate_limited', { retry_after: Math.max(1, outcome.ttlInSeconds) });
      }
    } finally {
      chargingWrite.delete(request);
    }
  });
}

export default fp(limits, { name: 'civitas-rate-limit' });
