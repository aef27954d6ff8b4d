/**
 * npm test: the build, then the static checks (scripts/checks.ts) and the suite (vitest) side by
 * side, the checks at a lower CPU priority (nice 10; CIVITAS_CHECKS_NICE=0 runs them at the suite's).
 *
 *   node scripts/test.ts                   everything (npm test)
 *   node scripts/test.ts test/api/record   the build, the checks, and vitest on what is named
 *
 * Why side by side: the suite's files wait much of their time (PostgreSQL, child processes starting,
 * a browser), and its last minutes run a few long files on fewer forks than there are cores; the
 * checks (about two CPU-minutes, one process per check) take the CPU the suite leaves. At a lower
 * priority they yield it to a test that is running. vitest's output streams as it runs; the
 * checks' is printed after it. The exit code is 1 when the build, any check or any test failed.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Step {
  command: string;
  args: string[];
  /** Runs at this lower CPU priority (its children inherit it). */
  nice?: number;
  /** Its output kept and handed back instead of streamed. */
  quiet?: boolean;
}

export interface Outcome {
  ok: boolean;
  output: string;
  /** Seconds from the start of `testRun` to this step's end. */
  endedAt: number;
}

function run(step: Step, started: number): Promise<Outcome> {
  const child = spawn(step.command, step.args, {
    cwd: root,
    stdio: step.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  // Before the child has loaded anything, so every process it starts inherits the priority.
  if (step.nice && child.pid) setPriority(child.pid, step.nice);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const outcome = (ok: boolean): Outcome => ({
    ok,
    output,
    endedAt: Math.round((performance.now() - started) / 100) / 10,
  });
  return new Promise((resolve) => {
    child.once('error', (error) => {
      output += `${String(error)}\n`;
      resolve(outcome(false));
    });
    child.once('close', (code) => resolve(outcome(code === 0)));
  });
}

/** The build; then, if it passed, the checks and the suite at once. */
export async function testRun(steps: { build: Step; checks: Step; suite: Step }) {
  const started = performance.now();
  const build = await run(steps.build, started);
  if (!build.ok) return { build };
  const checks = run(steps.checks, started);
  const suite = await run(steps.suite, started);
  return { build, checks: await checks, suite };
}

const root = fileURLToPath(new URL('..', import.meta.url));

if (import.meta.main) {
  const node = (script: string, args: string[] = []) => ({
    command: process.execPath,
    args: [join(root, 'scripts', script), ...args],
  });
  const { build, checks, suite } = await testRun({
    build: node('build.ts'),
    checks: { ...node('checks.ts'), nice: Number(process.env.CIVITAS_CHECKS_NICE ?? 10), quiet: true },
    suite: { command: join(root, 'node_modules', '.bin', 'vitest'), args: ['run', ...process.argv.slice(2)] },
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
}
