/**
 * The rate limiter's store when REDIS_URL is set: counters shared through Redis while Redis
 * answers, per-process counters while it does not (DESIGN.md: a shared dependency away degrades,
 * never takes the service down). Going down writes one warning, coming back one info line; no
 * stack per event, and ioredis never reaches its "Unhandled error event" (an error listener is
 * always attached). While Redis is away readiness reports `degraded` with the reason
 * (api/plugins/degradations.ts).
 */
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

type Outcome = { current: number; ttl: number };
type Callback = (error: Error | null, outcome?: Outcome) => void;
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): Store;
}
type StoreClass = new (...args: unknown[]) => Store;

// The limiter's own stores (CommonJS files its package does not export by name).
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreClass;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreClass;

export interface SharedCounters {
  redis: Redis;
  /** The class @fastify/rate-limit instantiates as its `store`. */
  Store: new () => Store;
  /** Why the counters are per process now; undefined while Redis answers. */
  degraded(): string | undefined;
}

/** Connects to Redis (retrying forever in the background) and builds the falling-back store. */
export function sharedCounters(url: string, nameSpace: string, log: FastifyBaseLogger): SharedCounters {
  // No offline queue: while disconnected a command fails at once (and falls back) instead of waiting.
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 5000),
  });
  let down: string | undefined = 'not connected yet';
  let warned = false;
  const goDown = (reason: string) => {
    down = reason;
    if (warned) return;
    warned = true;
    log.warn(`Redis unreachable (${reason}): rate limits count per process until it returns`);
  };
  redis.on('error', (error: Error & { code?: string }) => goDown(error.code ?? error.message));
  redis.on('close', () => {
    if (!down) goDown('connection closed');
  });
  redis.on('ready', () => {
    if (warned) log.info('Redis is back: rate limits are shared again');
    down = undefined;
    warned = false;
  });

  const shared = new RedisStore(false, false, redis, nameSpace);
  const local = new LocalStore(false, false, 5000);
  /** Redis while it is ready, else (or when its answer fails) this process's own counters. */
  const either =
    (method: 'incr' | 'read') => (key: string, cb: Callback, timeWindow: number, max: number) => {
      if (down || redis.status !== 'ready') return local[method](key, cb, timeWindow, max);
      shared[method](
        key,
        (error, outcome) => {
          if (!error) return cb(null, outcome);
          goDown(error.message);
          local[method](key, cb, timeWindow, max);
        },
        timeWindow,
        max,
      );
    };
  class FallingBackStore implements Store {
    incr = either('incr');
    read = either('read');
    child(): Store {
      return this;
    }
  }
  return { redis, Store: FallingBackStore, degraded: () => (down ? `redis: ${down}` : undefined) };
}
