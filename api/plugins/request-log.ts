import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import fp from 'fastify-plugin';

/** A request at least this slow is logged even when it succeeded. */
export const SLOW_REQUEST_MS = 1000;

/**
 * The per-request log: Fastify's own two info lines per request are off (disableRequestLogging in
 * api/app.ts), and the destination is asynchronous, so a busy process does not spend its event loop
 * writing lines nobody reads. What an operator acts on is still written, one line each: every
 * server error (5xx but 501 not_implemented, as in the errors plugin) and every slow request.
 * The route is its template (`/api/agent/:handle`), never the URL, so no handle or token is logged.
 */
async function requestLog(app: FastifyInstance) {
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    const failed = status >= 500 && status !== 501;
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
}
for (const method of METHODS) {
  Object.defineProperty(RequestLogger.prototype, method, {
    value(this: { logger: Record<string, LogMethod> }, ...args: unknown[]) {
      this.logger[method](...args);
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
