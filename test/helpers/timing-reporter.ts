import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where a run's time goes, per file, slowest first: import, hooks (set-up and tear-down: the
 * module's whole duration minus its tests) and tests, with the slowest test named. Opt-in:
 * `npx vitest run <files> --reporter=default --reporter=./test/helpers/timing-reporter.ts`;
 * with TIMING_OUT=<file> the table is appended there as well (one JSON line per file).
 */
export default class TimingReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = testModules.map(timing).sort((a, b) => b.total - a.total);
    const lines = rows.map(
      (r) =>
        `${s(r.total)} total  ${s(r.imports)} import  ${s(r.hooks)} hooks  ${s(r.tests)} tests  ${r.file}` +
        (r.slowest ? `  (slowest: ${s(r.slowest.ms)} ${r.slowest.name})` : ''),
    );
    process.stdout.write(`\ntime per file (seconds):\n${lines.join('\n')}\n`);
    const out = process.env.TIMING_OUT;
    if (out) appendFileSync(out, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }
}

interface Timing {
  file: string;
  total: number;
  imports: number;
  hooks: number;
  tests: number;
  slowest?: { name: string; ms: number };
}

function timing(module: TestModule): Timing {
  const d = module.diagnostic();
  let tests = 0;
  let slowest: Timing['slowest'];
  for (const test of module.children.allTests()) {
    const ms = test.diagnostic()?.duration ?? 0;
    tests += ms;
    if (!slowest || ms > slowest.ms) slowest = { name: test.fullName, ms };
  }
  const imports = d.collectDuration + d.setupDuration + d.prepareDuration + d.environmentSetupDuration;
  return {
    file: module.moduleId.replace(`${process.cwd()}/`, ''),
    total: imports + d.duration,
    imports,
    hooks: Math.max(0, d.duration - tests),
    tests,
    slowest,
  };
}

const s = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
