import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_PROCESS_ENV, withApiFlags } from '../../api/process-settings.ts';
import { createTestDatabase, dropDatabase, serverUrl } from './db.ts';

export interface RunningProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Forks a script that reports `{ ready: address }` over IPC; resolves once it is listening.
 * `execArgv`: Node's flags for it (default this process's own).
 */
export function startProcess(
  script: string,
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[] = process.execArgv,
): Promise<RunningProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(script, {
      execArgv: [...execArgv],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
    const onExit = (code: number | null) =>
      reject(new Error(`${script} exited (${code}) before it was ready:\n${stderr.slice(-2000)}`));
    child.once('exit', onExit);
    child.on('message', (message: { ready?: string }) => {
      if (!message.ready) return;
      child.off('exit', onExit);
      resolve({
        url: message.ready,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            if (child.connected) child.disconnect();
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }),
      });
    });
  });
}

/**
 * A real API process on the given database (see test/helpers/api-server.ts), with the Node flags
 * and environment `npm run api` gives one (api/process-settings.ts).
 */
export function startApiProcess(env: {
  DATABASE_URL?: string;
  CIVITAS_DATA_DIR?: string;
  CIVITAS_ORIGIN?: string;
  CIVITAS_TEST_SITE?: string;
  PORT?: string;
  CIVITAS_TRUST_PROXY?: string;
  CIVITAS_SITE_SECRET?: string;
  CIVITAS_RATE_READS_PER_MIN?: string;
}) {
  return startProcess(
    fileURLToPath(new URL('./api-server.ts', import.meta.url)),
    { ...API_PROCESS_ENV, DATABASE_URL: '', ...env },
    withApiFlags(process.execArgv),
  );
}

/** Where an API process started by a test keeps its Record, and how the test lets go of it. */
export interface ProcessStore {
  env: { DATABASE_URL: string } | { CIVITAS_DATA_DIR: string };
  remove(): Promise<void>;
}

/**
 * A fresh store for an API process in a child: a new PostgreSQL database when the suite has a
 * server (closed here: only the child connects), else a new embedded data directory.
 */
export async function processStore(): Promise<ProcessStore> {
  const server = serverUrl();
  if (server) {
    const database = await createTestDatabase();
    await database.db.close();
    const url = database.url!;
    return {
      env: { DATABASE_URL: url },
      remove: () => dropDatabase(server, new URL(url).pathname.slice(1)),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'civitas-process-'));
  return {
    env: { CIVITAS_DATA_DIR: dir },
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
