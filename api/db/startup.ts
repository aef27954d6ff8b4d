/**
 * Before a process opens its database: the server must answer and the named database must exist.
 * A database that does not exist is never created behind the operator's back (a typo in
 * DATABASE_URL would otherwise start the service on a new, empty database with fresh keys):
 * creating it is `npm run db:create`. A server that does not answer yet (starting, restarting,
 * a container started before its database) is waited for with backoff, one line per attempt.
 */
import pg from 'pg';
import { isDatabaseOutage } from './outage.ts';

/** A reason not to start, in words for a person: printed as one line, no stack trace. */
export class StartupRefusal extends Error {
  readonly code = 'CIVITAS_STARTUP_REFUSED';
}

/** host:port/name of a connection string: never its user or password. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}

/** Connects once: resolves when the database answers, throws a StartupRefusal or the outage itself. */
export async function checkDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {}); // a connection cut while we close it is not news
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '3D000')
      throw new StartupRefusal(
        `the database ${describeDatabase(url)} does not exist; create it with \`npm run db:create\` (nothing was created)`,
      );
    if (code === '28P01' || code === '28000')
      throw new StartupRefusal(`the database ${describeDatabase(url)} refused the credentials (${code})`);
    if (isDatabaseOutage(error)) throw error;
    throw new StartupRefusal(
      `the database ${describeDatabase(url)} cannot be used: ${(error as Error).message.split('\n')[0]}`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

export interface WaitOptions {
  /** Where the one line per failed attempt goes. */
  say: (line: string) => void;
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/** Waits (forever, with doubling delays) until the server answers; refusals are thrown at once. */
export async function awaitDatabase(url: string, options: WaitOptions): Promise<void> {
  let delay = options.firstDelayMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await checkDatabase(url);
    } catch (error) {
      if (error instanceof StartupRefusal) throw error;
      const why = (error as { code?: string }).code ?? (error as Error).message.split('\n')[0];
      options.say(
        `database ${describeDatabase(url)} unreachable (${why}); attempt ${attempt}, retrying in ${Math.round(delay / 100) / 10} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, options.maxDelayMs ?? 15_000);
    }
  }
}

/** For entry points: a refusal is a person's situation, not a crash. One line, exit 1. */
export function exitIfRefused(error: unknown): never {
  if (error instanceof StartupRefusal) {
    process.stderr.write(`civitas cannot start: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
