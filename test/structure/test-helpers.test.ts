/**
 * One set of test helpers, no fixed sleeps (issue 23 point 6). A test file asks the app through
 * test/helpers/http.ts (`requests`), not through a module-level wrapper of `app.inject` of its own;
 * and it waits on a fact (test/helpers/wait.ts `until`), never a bare `setTimeout(resolve, <ms>)`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const TEST = join(ROOT, 'test');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'helpers' || entry.name === '.artifacts' ? [] : testFiles(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

// This file quotes the patterns it looks for, so it is not among the files it judges.
const files = testFiles(TEST)
  .filter((path) => path !== import.meta.filename)
  .map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

/**
 * Module-level request wrappers: a `function`, or a `const` holding an arrow function, that takes a
 * `url` (or `path`) and whose body calls `app.inject` (the body runs to the next line starting in
 * column 0). Builders of one door's request (`arrive`, `imprint`) are data helpers, not wrappers.
 */
function injectWrappers(text: string): string[] {
  const lines = text.split('\n');
  const start =
    /^(?:export\s+)?(?:async\s+function\s+(\w+)|function\s+(\w+)|const\s+(\w+)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:<[^>]*>)?\()/;
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = start.exec(lines[i]!);
    if (!match) continue;
    let body = lines[i]!;
    for (let j = i + 1; j < lines.length && !/^\S/.test(lines[j]!); j++) body += `\n${lines[j]}`;
    if (/^\}/.test(lines[i + body.split('\n').length] ?? '')) body += '\n}';
    // A generic wrapper takes the URL (or path) it asks for; a builder of one door's request does not.
    const generic = /\(\s*(?:\w+:\s*\w+,\s*)?(?:url|path)\b/.test(lines[i]!);
    if (generic && /\bapp\(?\)?\.inject\(/.test(body)) found.push(match[1] ?? match[2] ?? match[3]!);
  }
  return found;
}

/** Files with request wrappers of their own that remain, and why. */
const WRAPPER_ALLOWED: Record<string, string> = {
  'test/api/doors/bodies.test.ts': 'rawJson sends bytes as given (encodings, broken JSON): its subject',
  'test/api/doors/declared.test.ts': 'attempts fires the several probes one declared door must refuse',
};

/** Fixed sleeps that remain, and why. */
const SLEEP_ALLOWED: Record<string, string> = {};

describe('one set of test helpers', () => {
  it('finds a wrapper when there is one (the rule can fail)', () => {
    expect(
      injectWrappers(
        "const get = (url: string) =>\n  t.app.inject({ method: 'GET', url });\nasync function post(url: string) {\n  return t.app.inject({ url });\n}\n",
      ),
    ).toEqual(['get', 'post']);
    expect(
      injectWrappers('const { get } = requests(() => t.app);\nconst x = (n: number) => n + 1;\n'),
    ).toEqual([]);
  });

  it('no test file wraps app.inject itself: it takes requests() from test/helpers/http.ts', () => {
    const wrapping = files
      .filter((file) => !(file.path in WRAPPER_ALLOWED))
      .flatMap((file) => injectWrappers(file.text).map((name) => `${file.path}: ${name}`));
    expect(wrapping).toEqual([]);
  });

  it('the allow-list names only files that still need it', () => {
    const stale = Object.keys(WRAPPER_ALLOWED).filter(
      (path) => injectWrappers(files.find((file) => file.path === path)?.text ?? '').length === 0,
    );
    expect(stale).toEqual([]);
  });
});

describe('no fixed sleeps', () => {
  const sleep = /setTimeout\(\s*\w+\s*,\s*[\d_]+\s*\)/;

  it('finds a sleep when there is one (the rule can fail)', () => {
    expect(sleep.test('await new Promise((resolve) => setTimeout(resolve, 1500));')).toBe(true);
    expect(sleep.test("await until('the day sealed', sealed);")).toBe(false);
  });

  it('no test sleeps a fixed time: it waits on a fact with until() from test/helpers/wait.ts', () => {
    const sleeping = files
      .filter((file) => !(file.path in SLEEP_ALLOWED))
      .flatMap((file) =>
        file.text
          .split('\n')
          .map((line, i) => ({ line, at: `${file.path}:${i + 1}` }))
          .filter(({ line }) => sleep.test(line) && !/^\s*(\*|\/\/)/.test(line))
          .map(({ at }) => at),
      );
    expect(sleeping).toEqual([]);
  });
});

describe('one browser set-up', () => {
  /** Browser tests that launch Chromium themselves, and why. */
  const LAUNCH_ALLOWED: Record<string, string> = {
    'test/e2e/site.test.ts': 'the site mounted alone on a bare Fastify, no app: what it tests',
  };
  const launches = (text: string) =>
    /\blaunchBrowser\(|chromium\.launch\(|from ['"]playwright-core['"];?\s*$/m.test(
      text.replace(/import type [^;]+;/g, ''),
    );

  it('finds a launch when there is one (the rule can fail)', () => {
    expect(launches('browser = await launchBrowser();')).toBe(true);
    expect(launches("import type { Page } from 'playwright-core';\nconst e = await startE2E();")).toBe(false);
  });

  it('every browser test takes its app, Chromium and pages from test/helpers/e2e.ts', () => {
    const own = files
      .filter((file) => file.path.startsWith('test/e2e/') && !(file.path in LAUNCH_ALLOWED))
      .filter((file) => launches(file.text))
      .map((file) => file.path);
    expect(own).toEqual([]);
  });
});
