import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';

/** A request at least this slow is logged even when it succeeded. */
export const SLOW_REQUEST_MS = 1000;

/**
 * The per-request log: Fastify's own two info lines per request are off (disableRequestLogging in
 * api/app.ts), and the destination is asynchronous, so a busy process does not spend its event loop
 * writing lines nobody reads. What an operator acts on is still written, one line each: every
 * server error (5xx but 501 not_implemented, as in the errors plugin) and every slow request.
 * The route is its template (`/api/agent/:handle`), never the URL, so no handle or token is logged.
 */
async function requestLog(app: FastifyInstance, options: { sample?: number }) {
  const sample = options.sample ?? 0;
  // The request's id (a sane X-Request-Id it came with, else a new one: requestId below) goes back.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    const failed = status >= 500 && status !== 501;
    // The access log (CIVITAS_ACCESS_LOG_SAMPLE of requests, 1 = every one): one line each.
    if (sample > 0 && (sample >= 1 || Math.random() < sample)) {
      const bytes = Number(reply.getHeader('content-length') ?? 0);
      request.log.info(
        {
          method: request.method,
          route: request.routeOptions.url ?? '(no route)',
          status,
          ms: Math.round(ms * 10) / 10,
          bytes,
        },
        'request',
      );
    }
    if (failed || ms >= SLOW_REQUEST_MS) {
      const line = {
        method: request.method,
        route: request.routeOptions.url ?? '(no route)',
        status,
        ms: Math.round(ms),
      };
      if (failed) request.log.error(line, 'request answered with a server error');
      else request.log.warn(line, 'slow request');
    }
    done();
  });
}

/** A client's X-Request-Id is kept when it is short and plain; anything else gets a fresh id. */
const SANE_ID = /^[A-Za-z0-9._:-]{1,64}$/;
export function requestId(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

type LogMethod = (...args: unknown[]) => void;
const METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Fastify gives every request a child logger bound to its request id. Most requests never log a
 * line (see above), so the child is made on first use: the request's logger is this stand-in, and
 * the real child (same bindings, same options) exists only once something is written through it.
 */
class RequestLogger {
  private real: FastifyBaseLogger | undefined;
  private readonly parent: FastifyBaseLogger;
  private readonly bindings: Bindings;
  private readonly options: ChildLoggerOptions;
  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.parent = parent;
    this.bindings = bindings;
    this.options = options;
  }
  private get logger(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }
  get level(): string {
    return this.real?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
  /**
   * Writes one line. A line whose first argument is a plain object (the access log's, once per
   * request), while no child exists and none would differ from the parent but by its bindings (no
   * level, no serializers of its own), is written through the parent with the bindings merged in
   * front of its fields: the same JSON line, in the same key order, as the child writes, without
   * making the child (about 3 µs a request). Anything else goes through the child.
   */
  emit(method: (typeof METHODS)[number], args: unknown[]): void {
    const [first, ...rest] = args;
    const childless = this.real === undefined && Object.keys(this.options).length === 0;
    if (childless && typeof first === 'object' && first !== null && !(first instanceof Error)) {
      (this.parent as unknown as Record<string, LogMethod>)[method]!({ ...this.bindings, ...first }, ...rest);
    } else {
      (this.logger as unknown as Record<string, LogMethod>)[method]!(...args);
    }
  }
}
for (const method of METHODS) {
  Object.defineProperty(RequestLogger.prototype, method, {
    value(this: RequestLogger, ...args: unknown[]) {
      this.emit(method, args);
    },
  });
}

/** Fastify's childLoggerFactory (api/app.ts): the lazily made request logger above. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}

export default fp(requestLog, { name: 'civitas-request-log' });
