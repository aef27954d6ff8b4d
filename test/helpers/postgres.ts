/**
 * The suite on a real PostgreSQL: one migrated template per run, a copy of it per test file, and
 * the copies dropped in the background. DROP DATABASE waits on the server's disk (about a second
 * on a busy machine); a file that has finished only renames its copy (`civitas_x_…`, instant),
 * and the reaper the global setup starts drops the renamed copies while other files run.
 *
 * Names carry the run's tag, so concurrent runs on one server never touch each other's databases.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../api/db/database.ts';

export const templateName = (run: string) => `civitas_tpl_${run}`;
const copyPrefix = (run: string) => `civitas_t_${run}_`;
const retiredPrefix = (run: string) => `civitas_x_${run}_`;

/** A tag for this run's databases: short, lower case, unique enough across concurrent runs. */
export const runTag = () => `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`;

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Global setup: the run's migrated template, which each test file copies (fast, isolated). */
export async function prepareTemplate(url: string, run: string): Promise<void> {
  await admin(url, (client) => client.query(`create database ${templateName(run)}`));
  const database = await openDatabase({ url: withDatabase(url, templateName(run)) });
  await database.close();
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await admin(url, (client) => client.query(`drop database if exists ${name} with (force)`));
}

/** A fresh copy of the run's template; returns its name. */
export async function copyTemplate(url: string, run: string): Promise<string> {
  const suffix = randomBytes(6).toString('hex');
  await admin(url, (client) =>
    client.query(`create database ${copyPrefix(run)}${suffix} template ${templateName(run)}`),
  );
  return `${copyPrefix(run)}${suffix}`;
}

/** Hands a closed copy to the reaper: a rename, so the file need not wait for the drop. */
export async function retireCopy(url: string, run: string, name: string): Promise<void> {
  const retired = name.replace(copyPrefix(run), retiredPrefix(run));
  await admin(url, (client) => client.query(`alter database ${name} rename to ${retired}`));
}

async function dropAll(url: string, prefixes: string[]): Promise<void> {
  await admin(url, async (client) => {
    const rows = await client.query<{ datname: string }>(
      'select datname from pg_database where exists (select from unnest($1::text[]) prefix where starts_with(datname, prefix))',
      [prefixes],
    );
    for (const { datname } of rows.rows)
      await client.query(`drop database if exists ${datname} with (force)`);
  });
}

/**
 * Drops retired copies every second until stopped; stopping drops whatever of this run is left
 * (copies a crashed file never retired included) and the template.
 */
export function startReaper(url: string, run: string): { stop(): Promise<void> } {
  let sweeping: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (sweeping) return; // one sweep at a time; a slow one just delays the next
    sweeping = dropAll(url, [retiredPrefix(run)])
      .catch(() => {}) // the next sweep, or the last one at stop, tries again
      .finally(() => (sweeping = undefined));
  }, 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
      await dropAll(url, [retiredPrefix(run), copyPrefix(run)]);
      await dropDatabase(url, templateName(run));
    },
  };
}
