/**
 * The suite on a real PostgreSQL: one migrated template per run, a copy of it per test file, and
 * the copies dropped in the background. DROP DATABASE waits on the server's disk (about a second
 * on a busy machine); a file that has finished only renames its copy (`civitas_x_…`, instant),
 * and the reaper, a process of its own that the global setup starts, drops the renamed copies
 * while other files run and what is left of the run once it has ended.
 *
 * Names carry the run's tag, so concurrent runs on one server never touch each other's databases.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { isAlive } from '../../api/db/data-dir-lock.ts';
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

/** At most this many drops wait together (each on a connection of its own). */
const DROPS_AT_ONCE = 8;

/**
 * Drops these databases, several at once. Each DROP DATABASE makes PostgreSQL checkpoint and waits
 * for it; drops that wait together share one checkpoint, where one after another each forces its
 * own (one per test file, with every dirty buffer of the files still running written out each time).
 */
async function dropEach(url: string, names: string[]): Promise<void> {
  for (let i = 0; i < names.length; i += DROPS_AT_ONCE)
    await Promise.all(names.slice(i, i + DROPS_AT_ONCE).map((name) => dropDatabase(url, name)));
}

/** A suite's database (templateName, copyPrefix, retiredPrefix): the template's run, or a copy's. */
const SUITE_DATABASE = /^civitas_(?:tpl_([0-9a-z]+)|[tx]_([0-9a-z]+)_[0-9a-f]+)$/;

/** The process that made a run's tag (runTag): its pid, before the tag's six hex digits. */
const runOwner = (run: string) => parseInt(run.slice(0, -6), 36);

interface SuiteDatabase {
  name: string;
  run: string;
  template: boolean;
}

/** Every suite database on the server, with the run it belongs to. */
async function suiteDatabases(url: string): Promise<SuiteDatabase[]> {
  const { rows } = await admin(url, (client) =>
    client.query<{ datname: string }>("select datname from pg_database where datname like 'civitas\\_%'"),
  );
  return rows.flatMap(({ datname }) => {
    const match = SUITE_DATABASE.exec(datname);
    if (!match) return [];
    return [{ name: datname, run: (match[1] ?? match[2])!, template: match[1] !== undefined }];
  });
}

/**
 * What a sweep drops: this run's retired copies, and every database of a run whose process is gone
 * (a run killed before it could drop its own, or one whose last drops were still going when the
 * machine went on to the next run). A run of another live process is never touched.
 */
async function sweepable(url: string, run: string): Promise<string[]> {
  return (await suiteDatabases(url))
    .filter((db) => (db.run === run ? db.name.startsWith(retiredPrefix(run)) : !isAlive(runOwner(db.run))))
    .map((db) => db.name);
}

/** Every database of a run, its template last (the copies were made from it). */
async function dropRun(url: string, run: string): Promise<void> {
  const own = (await suiteDatabases(url)).filter((db) => db.run === run);
  const copies = own.filter((db) => !db.template).map((db) => db.name);
  await dropEach(url, copies);
  await dropDatabase(url, templateName(run));
}

/** How often the reaper looks; copies retired while a sweep waits go together in the next one. */
const SWEEP_MS = 1000;

/** How long the reaper keeps trying when the server does not answer. */
const GIVE_UP_MS = 10 * 60_000;

/**
 * The reaper's loop (test/helpers/reaper.ts, a process of its own): while the run's process lives,
 * every second it drops the copies retired since the last sweep and the databases of runs whose
 * process is gone; once the run's process has ended, it drops what is left of the run (copies a
 * crashed file never retired included, and the template) and ends.
 */
export async function reap(url: string, run: string): Promise<void> {
  let failingSince: number | undefined;
  for (;;) {
    const ended = !isAlive(runOwner(run));
    try {
      if (ended) return await dropRun(url, run);
      await dropEach(url, await sweepable(url, run));
      failingSince = undefined;
    } catch (error) {
      failingSince ??= Date.now();
      if (Date.now() - failingSince > GIVE_UP_MS) throw error;
    }
    await sleep(SWEEP_MS);
  }
}

const REAPER = fileURLToPath(new URL('./reaper.ts', import.meta.url));

/**
 * Starts the run's reaper, detached: its drops wait on checkpoints, and neither a test file nor
 * the end of `npm test` waits for them (at the end of a run they took 15-20 s on a two-core
 * machine). Should it be killed, the next run's reaper drops what it left.
 */
export function startReaper(url: string, run: string): void {
  spawn(process.execPath, [REAPER, url, run], { detached: true, stdio: 'ignore' }).unref();
}
