/**
 * Graceful shutdown (api/server.ts): on SIGTERM or SIGINT, once. The app stops accepting
 * connections, answers the requests in flight (api/plugins/drain.ts closes their connections after
 * the answer), and cuts whatever is still open after CIVITAS_SHUTDOWN_GRACE_MS; then its onClose
 * hooks write the vitals and failures of the last interval and close the database pool
 * (api/app.ts), and the process exits 0. A shutdown that cannot finish (a hung dependency) still
 * ends, with exit code 1, a few seconds after the grace.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** How long after the grace a shutdown may still take (flushes, pool close) before the process gives up. */
export const SHUTDOWN_SLACK_MS = 5_000;

export function onShutdownSignal(
  log: FastifyBaseLogger,
  graceMs: number,
  work: () => Promise<void>,
  message = 'shutting down',
): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      log.info({ signal }, message);
      setTimeout(() => {
        log.error({ graceMs }, 'shutdown did not finish in time; exiting');
        process.exit(1);
      }, graceMs + SHUTDOWN_SLACK_MS).unref();
      work().then(
        () => process.exit(0),
        (error: Error) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

/** Closes the app, giving requests in flight `graceMs` to finish before their connections are cut. */
export async function closeApp(app: FastifyInstance, graceMs: number): Promise<void> {
  const cut = setTimeout(() => {
    app.log.warn({ graceMs }, 'requests still in flight after the grace period; closing their connections');
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}
