/**
 * A Redis server of the test's own, on a port the test owns, as a child process: tests take it away
 * (stop) and bring it back (start) to see the service degrade and recover.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from './ports.ts';
import { until } from './wait.ts';

export interface OwnRedis {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function ownRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const own: OwnRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
        ],
        {
          stdio: 'ignore',
        },
      );
      await until(`redis-server on ${port}`, async () => ((await answers(port)) ? true : undefined), {
        everyMs: 25,
      });
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
      await until(`redis-server on ${port} to stop`, async () => ((await answers(port)) ? undefined : true), {
        everyMs: 25,
      });
    },
  };
  return own;
}
