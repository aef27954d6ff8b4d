/**
 * `npm test` (scripts/test.ts, its steps in scripts/test-run.ts): the static checks beside the build and then the suite, the
 * checks at a lower CPU priority; it fails when any part fails, and the checks' output comes after the suite's.
 * Each step here is a small Node program standing in for the real one.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testRun, type Step } from '../../scripts/test-run.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A step that runs `code` in a fresh Node. */
const node = (code: string, extra: Partial<Step> = {}): Step => ({
  command: process.execPath,
  args: ['-e', code],
  quiet: true,
  ...extra,
});
const pass = (say: string, extra: Partial<Step> = {}) => node(`console.log(${JSON.stringify(say)})`, extra);
const fail = node('process.exit(3)');

describe('npm test', () => {
  it('is scripts/test.ts', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.test).toBe('node scripts/test.ts');
  });

  it('runs the checks beside the build and the suite, the checks at their lower priority', async () => {
    // Each side waits for the other's file: both pass only when they ran at the same time (one
    // after the other, the first gives up after 10 s). The build waits for the checks to start.
    const dir = mkdtempSync(join(tmpdir(), 'civitas-npm-test-'));
    const meet = (mine: string, theirs: string) =>
      `const fs = require('node:fs'); fs.writeFileSync(${JSON.stringify(join(dir, mine))}, ''); let polls = 0;` +
      `const poll = setInterval(() => { if (fs.existsSync(${JSON.stringify(join(dir, theirs))})) {` +
      ` console.log('met', require('node:os').getPriority()); clearInterval(poll); }` +
      ` else if (++polls > 500) process.exit(1); }, 20);`;
    const started = (name: string) =>
      `const fs = require('node:fs'); let polls = 0; const poll = setInterval(() => {` +
      ` if (fs.existsSync(${JSON.stringify(join(dir, name))})) { console.log('built'); clearInterval(poll); }` +
      ` else if (++polls > 500) process.exit(1); }, 20);`;
    const run = await testRun({
      build: node(started('checks')),
      checks: node(meet('checks', 'suite'), { nice: 7 }),
      suite: node(meet('suite', 'checks')),
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(run.build.ok).toBe(true);
    expect(run.checks?.ok).toBe(true);
    expect(run.checks?.output.trim()).toBe('met 7');
    expect(run.suite?.ok).toBe(true);
    expect(run.suite?.output.trim()).toMatch(/^met \d+$/);
    expect(run.suite?.output.trim()).not.toBe('met 7');
  });

  it('fails when the checks fail, or the suite, and runs no suite when the build fails', async () => {
    const checksFail = await testRun({ build: pass('built'), checks: fail, suite: pass('suite') });
    expect([checksFail.checks?.ok, checksFail.suite?.ok]).toEqual([false, true]);
    const suiteFails = await testRun({ build: pass('built'), checks: pass('checks'), suite: fail });
    expect([suiteFails.checks?.ok, suiteFails.suite?.ok]).toEqual([true, false]);
    const buildFails = await testRun({ build: fail, checks: pass('checks'), suite: pass('suite') });
    expect(buildFails).toEqual({
      build: expect.objectContaining({ ok: false }),
      checks: expect.objectContaining({ ok: true, output: 'checks\n' }),
    });
  });
});
