import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/helpers/sequencer.ts';

// Every fork compiles the same dependencies (Fastify, MikroORM, PGlite …): Node's compile cache
// keeps their bytecode on disk, keyed by content, so only the first fork of a run pays for it.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'civitas-node-compile-cache');

// Test files run in a few long-lived forks, each file with its own app on its own database (see
// test/helpers/db.ts): a copy of one migrated template per run, never a migration per file.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Vitest's default is one fork per core less one: a single fork on two cores. A file spends
    // much of its time waiting (PostgreSQL, child processes, a browser), so one more fork than
    // there are cores keeps them busy. `--maxWorkers=N` on the command line overrides it.
    maxWorkers: availableParallelism() + 1,
    // A fork runs file after file without importing the app again (about 40% of the suite's CPU);
    // files share loaded modules, not state: each builds its own app on its own database.
    // `--isolate` on the command line gives every file a fresh fork again.
    isolate: false,
    sequence: { sequencer: LongFirstSequencer },
    // Generous on purpose: on a loaded machine a test may take several times its quiet duration,
    // and no test may depend on the machine being fast.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: { TZ: 'UTC', NODE_ENV: 'test', CIVITAS_ANSWER_CHECK: 'strict' },
    // CPU_OUT=<file>: each file's CPU appended there (test/helpers/cpu-meter.ts, docs/testing.md).
    setupFiles: [
      'test/helpers/answer-check.ts',
      ...(process.env.CPU_OUT ? ['test/helpers/cpu-meter.ts'] : []),
    ],
    globalSetup: ['test/helpers/global-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // `npm run test:coverage`: statements and branches of the service's own code (docs/testing.md).
    coverage: {
      provider: 'v8',
      include: ['api/**/*.ts', 'shared/**/*.ts', 'cards/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      // The figure is printed even when a test fails (a loaded machine's timeout must not hide it).
      reportOnFailure: true,
      reportsDirectory: 'test/.artifacts/coverage',
    },
  },
});
