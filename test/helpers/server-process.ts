/**
 * The real service process (`node api/server.ts`, as `npm run api` starts it) for tests of what
 * only a process shows: start-up refusals, workers, signals, the operator's listeners.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { API_NODE_FLAGS, API_PROCESS_ENV } from '../../api/process-settings.ts';

const SERVER = fileURLToPath(new URL('../../api/server.ts', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
  /** Resolves once the output matches; rejects when the process exits first. */
  until(pattern: RegExp): Promise<void>;
  /** SIGKILL unless it already exited. */
  stop(): Promise<void>;
}

/**
 * Starts the server (or another script of the service, such as `scripts/db-create.ts`) with `env`
 * over the test's environment (embedded, one worker, no Redis unless said), as `npm run api` does.
 */
export function runServer(env: NodeJS.ProcessEnv, script = SERVER): ServerProcess {
  // With the Node flags and environment `npm run api` starts it with (api/process-settings.ts).
  const child = spawn(process.execPath, [...API_NODE_FLAGS, script], {
    env: {
      ...process.env,
      ...API_PROCESS_ENV,
      DATABASE_URL: '',
      REDIS_URL: '',
      CIVITAS_WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters: (() => void)[] = [];
  const take = (chunk: Buffer) => {
    text += String(chunk);
    waiters.forEach((wake) => wake());
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited,
    until: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => pattern.test(text) && resolve();
        waiters.push(check);
        check();
        void exited.then(() => reject(new Error(`exited before ${pattern}:\n${text.slice(-3000)}`)));
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
