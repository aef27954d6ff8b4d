/**
 * Is this error the database being away (refused, restarting, not accepting connections, the
 * connection cut), rather than a fault of the request or the code? Such errors answer 503
 * `unavailable` with Retry-After, never 500 (DESIGN.md "a shared dependency away").
 */

/** SQLSTATE classes and codes of an unreachable or unwilling server (PostgreSQL appendix A). */
const OUTAGE_STATES = new Set([
  '57P01', // admin_shutdown (terminated by an administrator)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '3D000', // invalid_catalog_name: the database was dropped
  '53300', // too_many_connections
]);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const OUTAGE_WORDS =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|PGlite is closed|not currently accepting connections/i;

/** How long a client is told to wait before it tries again while the database is away. */
export const OUTAGE_RETRY_AFTER_S = 5;

export function isDatabaseOutage(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current = error;
  // Drivers and the ORM wrap the socket's error: look down the `cause` chain (bounded).
  while (current && typeof current === 'object' && !seen.has(current) && seen.size < 5) {
    seen.add(current);
    const { code, message, sqlState } = current as { code?: unknown; message?: unknown; sqlState?: unknown };
    if (
      typeof code === 'string' &&
      (code.startsWith('08') || OUTAGE_STATES.has(code) || SOCKET_CODES.has(code))
    )
      return true;
    if (typeof sqlState === 'string' && OUTAGE_STATES.has(sqlState)) return true;
    if (typeof message === 'string' && OUTAGE_WORDS.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
