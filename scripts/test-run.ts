/**
 * The steps of `npm test` (scripts/test.ts): the static checks beside the build and then the suite,
 * each a process; test/structure/npm-test.test.ts drives it with small stand-ins.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

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

/**
 * The checks from the start, beside the build (one core's work: the other would wait), and the
 * suite once the build has passed; a failed build runs no suite, and the checks still report.
 */
export async function testRun(steps: { build: Step; checks: Step; suite: Step }) {
  const started = performance.now();
  const checks = run(steps.checks, started);
  const build = await run(steps.build, started);
  if (!build.ok) return { build, checks: await checks };
  const suite = await run(steps.suite, started);
  return { build, checks: await checks, suite };
}
