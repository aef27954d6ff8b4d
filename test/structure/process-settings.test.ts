/**
 * Every way the API process starts in production runs it with the same settings
 * (api/process-settings.ts: the V8 heap limits and the malloc arenas that keep it under 400 MB):
 * `npm start`, `npm run api`, the Containerfile's CMD and the benches. The cluster's workers get
 * them from their primary (test/api/perf/cluster.test.ts checks a running worker).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS, API_PROCESS_ENV, withApiEnv, withApiFlags } from '../../api/process-settings.ts';
import {
  API_PROCESS_ENV as BENCH_ENV,
  API_PROCESS_FLAGS as BENCH_FLAGS,
} from '../../scripts/bench/harness.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const containerfile = readFileSync(join(ROOT, 'Containerfile'), 'utf8');
const environment = Object.entries(API_PROCESS_ENV).map(([name, value]) => `${name}=${value}`);

describe('the API process settings', () => {
  it.each(['start', 'api'])('are what `npm run %s` starts the server with', (script) => {
    const command = manifest.scripts[script]!.split(' && ').at(-1)!;
    expect(command).toBe([...environment, 'node', ...API_NODE_FLAGS, 'api/server.ts'].join(' '));
  });

  it("are the Containerfile's CMD and environment", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(containerfile)?.[1];
    expect(cmd && JSON.parse(cmd)).toEqual(['node', ...API_NODE_FLAGS, 'api/server.ts']);
    for (const setting of environment) expect(containerfile).toMatch(new RegExp(`^ENV ${setting}$`, 'm'));
  });

  it('are what the benches start civitas with', () => {
    expect(BENCH_FLAGS).toEqual(API_NODE_FLAGS);
    expect(BENCH_ENV).toEqual(API_PROCESS_ENV);
  });

  it('cap the old generation, the young one and the malloc arenas; WebAssembly on Liftoff only', () => {
    expect(API_NODE_FLAGS).toEqual([
      '--max-semi-space-size=32',
      '--max-old-space-size=256',
      '--liftoff-only',
    ]);
    expect(API_PROCESS_ENV).toEqual({ MALLOC_ARENA_MAX: '2' });
  });
});

describe('a worker of the cluster', () => {
  it("gets every API flag its primary lacks, and keeps the primary's own values", () => {
    expect(withApiFlags([])).toEqual(API_NODE_FLAGS);
    expect(withApiFlags(['--enable-source-maps'])).toEqual(['--enable-source-maps', ...API_NODE_FLAGS]);
    // An operator's larger heap on a larger machine stays, however the flag is spelled.
    expect(withApiFlags(['--max-old-space-size=1024'])).toEqual([
      '--max-old-space-size=1024',
      '--max-semi-space-size=32',
      '--liftoff-only',
    ]);
    expect(withApiFlags(['--max_old_space_size=1024', ...API_NODE_FLAGS.slice(0, 1)])).toEqual([
      '--max_old_space_size=1024',
      '--max-semi-space-size=32',
      '--liftoff-only',
    ]);
  });

  it('gets the API environment unless the operator set its own', () => {
    expect(withApiEnv({ PORT: '8080' })).toEqual({ PORT: '8080', MALLOC_ARENA_MAX: '2' });
    expect(withApiEnv({ MALLOC_ARENA_MAX: '4' })).toEqual({ MALLOC_ARENA_MAX: '4' });
  });
});
