/**
 * The static checks of `npm test`, run side by side: each is one process on one core, so on two
 * cores two at a time take half the time one after another would.
 *
 *   node scripts/checks.ts                 all of them (npm test, beside the suite: scripts/test.ts)
 *   node scripts/checks.ts tsc astro       some (npm run typecheck)
 *
 *   astro     `astro check` of the pages; skipped when it passed on the same inputs as the build's
 *             (scripts/build-inputs.ts: every file the site can read), like the build itself
 *   prettier  `prettier --check` (its experimental CLI), with Prettier's own cache of files it found
 *             formatted
 *   lint      oxlint with its type-aware rules (.oxlintrc.json), zero warnings
 *   tsc       the TypeScript checker, TypeScript 7's native one (the `typescript7` alias; the
 *             `typescript` package and node_modules/.bin/tsc stay TypeScript 6, which astro check
 *             loads), single-threaded, incremental (its state in node_modules/.cache/civitas)
 *
 * Each check's output is printed whole when it ends (never interleaved); the exit code is 1 when
 * any check failed, after all have run. CIVITAS_CHECKS_FORCE=1 runs astro check regardless.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsHash } from './build-inputs.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = join(root, 'node_modules', '.cache', 'civitas');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface Check {
  command: string[];
  /** A key of what the check reads: when it passed on this key before, it is skipped. */
  inputs?: () => string;
  /** Set in its environment. */
  env?: Record<string, string>;
}

/**
 * Run in this order, two at a time. `npm test` starts them beside the build, so `astro check`,
 * which writes the same generated types under .astro/ as the build does, comes after the first
 * two (ten seconds at the least), when the build has long written them.
 */
const CHECKS: Record<string, Check> = {
  // Prettier's new CLI (3.6+): the same files and verdict as the old one at less CPU; its worker
  // threads saved none here, so it stays one process on one core like the others.
  prettier: {
    command: [
      bin('prettier'),
      '--experimental-cli',
      '--no-parallel',
      '--check',
      '--cache',
      '--log-level',
      'warn',
      '.',
    ],
  },
  // oxlint with its type-aware rules (.oxlintrc.json): oxlint-tsgolint asks TypeScript 7's checker,
  // a Go program. One Go thread: the default of one per core spends its extra CPU on garbage
  // collection beside the suite (8.7 CPU-s instead of 16.5 for the whole tree here).
  lint: {
    command: [bin('oxlint'), '--max-warnings', '0', '--threads', '1'],
    env: { GOMAXPROCS: '1' },
  },
  astro: {
    command: [
      bin('astro'),
      'check',
      '--root',
      '.',
      '--tsconfig',
      'site/tsconfig.json',
      '--minimumSeverity',
      'warning',
    ],
    inputs: () => buildInputsHash(root),
  },
  tsc: {
    // Single-threaded: its default of parallel checkers takes twice the CPU (38 CPU-s against 17 from
    // clean) for a wall time that, beside the suite on two cores, it would not get anyway. Its
    // build info has its own name, apart from the one TypeScript 6 left in an existing cache.
    command: [
      join(root, 'node_modules', 'typescript7', 'bin', 'tsc'),
      '--noEmit',
      '--singleThreaded',
      '--incremental',
      '--tsBuildInfoFile',
      'node_modules/.cache/civitas/typecheck7.tsbuildinfo',
    ],
  },
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in CHECKS));
if (unknown.length) {
  console.error(`unknown check(s): ${unknown.join(', ')} (known: ${Object.keys(CHECKS).join(', ')})`);
  process.exit(2);
}
const queue = Object.keys(CHECKS).filter((name) => !asked.length || asked.includes(name));

const passedFile = (name: string) => join(cache, `${name}.passed`);

function alreadyPassed(name: string, key: string | undefined): boolean {
  if (!key || process.env.CIVITAS_CHECKS_FORCE === '1') return false;
  const file = passedFile(name);
  return existsSync(file) && readFileSync(file, 'utf8').trim() === key;
}

function run(name: string): Promise<boolean> {
  const check = CHECKS[name]!;
  const key = check.inputs?.();
  if (alreadyPassed(name, key)) {
    console.log(`${name}: passed on the same inputs before (${key!.slice(0, 12)}): skipped`);
    return Promise.resolve(true);
  }
  const started = performance.now();
  const [command, ...args] = check.command as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...check.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    child.once('error', (error) => {
      output += String(error);
    });
    child.once('close', (code) => {
      const ok = code === 0;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${name}: ${ok ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s\n`);
      if (output.trim()) process.stdout.write(`${output.trimEnd()}\n`);
      if (ok && key) {
        mkdirSync(cache, { recursive: true });
        writeFileSync(passedFile(name), `${key}\n`);
      }
      resolve(ok);
    });
  });
}

const failed: string[] = [];
async function worker(): Promise<void> {
  for (let name = queue.shift(); name; name = queue.shift()) if (!(await run(name))) failed.push(name);
}
await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
if (failed.length) {
  console.error(`checks failed: ${failed.join(', ')}`);
  process.exit(1);
}
