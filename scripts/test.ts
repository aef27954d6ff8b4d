/**
 * npm test: the static checks (scripts/checks.ts) beside the build, then the suite (vitest) beside
 * the checks, the checks at a lower CPU priority (nice 10; CIVITAS_CHECKS_NICE=0 runs them at the
 * suite's).
 *
 *   node scripts/test.ts                   everything (npm test)
 *   node scripts/test.ts test/api/record   the build, the checks, and vitest on what is named
 *
 * Why side by side: the build is one core's work, the suite's files wait much of their time
 * (PostgreSQL, child processes starting, a browser), and its last minutes run a few long files on
 * fewer forks than there are cores; the checks (under a CPU-minute, one process per check) take
 * the CPU those leave. At a lower priority they yield it to a test that is running. vitest's output
 * streams as it runs; the checks' is printed after it. The exit code is 1 when the build, any
 * check or any test failed; a failed build runs no suite.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testRun } from './test-run.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

const node = (script: string, args: string[] = []) => ({
  command: process.execPath,
  args: [join(root, 'scripts', script), ...args],
});
const { build, checks, suite } = await testRun({
  build: node('build.ts'),
  checks: { ...node('checks.ts'), nice: Number(process.env.CIVITAS_CHECKS_NICE ?? 10), quiet: true },
  // vitest on this Node (its bin's `env node` could find another on the PATH).
  suite: {
    command: process.execPath,
    args: [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)],
  },
});
if (checks) process.stdout.write(`\nstatic checks (ended at ${checks.endedAt} s):\n${checks.output}`);
const failed = [
  !build.ok && 'the build',
  checks && !checks.ok && 'static checks',
  suite && !suite.ok && 'tests',
].filter(Boolean);
if (suite) console.log(`npm test: the suite ended at ${suite.endedAt} s`);
if (failed.length) {
  console.error(`npm test failed: ${failed.join(', ')}`);
  process.exit(1);
}
