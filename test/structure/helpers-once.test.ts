/**
 * The router and a few shared helpers do the repeated work once: JSON-or-page on hybrids, form posts
 * and redirects (api/http.ts), same-origin (api/plugins/same-origin.ts), who is speaking
 * (api/agents/speaker.ts; its type in the Record's registry, api/record/speakers.ts), dates
 * (shared/time.ts), the public actor format (shared/actor.ts).
 * A second definition, or a route branching on Accept itself, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE_DIRS = ['api', 'shared', 'site', 'cards', 'scripts'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...sourceFiles(path));
    } else if (/\.(ts|mts|astro)$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

const files = SOURCE_DIRS.flatMap(sourceFiles).map((path) => ({
  path: relative(ROOT, join(ROOT, path)),
  text: readFileSync(join(ROOT, path), 'utf8'),
}));

/**
 * Files defining `name`: a function, a constant holding an arrow function, an exported constant, or an
 * interface/type. (A local `const iso = at.toISOString()` inside a function is a value, not a helper.)
 */
function definitionsOf(name: string): string[] {
  const patterns = [
    `(?:export\\s+)?(?:async\\s+)?function\\s+${name}\\s*[<(]`,
    `(?:const|let)\\s+${name}\\s*(?::[^=]+)?=\\s*(?:async\\s*)?(?:\\([^)]*\\)|\\w+)\\s*(?::[^=]+)?=>`,
    `export\\s+(?:const|let)\\s+${name}\\b`,
    `(?:export\\s+)?(?:interface|type)\\s+${name}\\b`,
  ];
  const definition = new RegExp(`(?:^|\\n)\\s*(?:${patterns.join('|')})`);
  return files.filter((file) => definition.test(file.text)).map((file) => file.path);
}

/** Files calling `name(` outside a comment line. */
function callersOf(name: string): string[] {
  const call = new RegExp(`(?<![\\w.])${name}\\(`);
  return files
    .filter((file) =>
      file.text
        .split('\n')
        .some(
          (line) =>
            !/^\s*(\*|\/\/)/.test(line) &&
            call.test(line) &&
            !new RegExp(`function\\s+${name}\\(`).test(line),
        ),
    )
    .map((file) => file.path);
}

const ONCE: Record<string, string> = {
  wantsJson: 'api/http.ts',
  wantsHtml: 'api/http.ts',
  isFormPost: 'api/http.ts',
  returnTarget: 'api/http.ts',
  withQuery: 'api/http.ts',
  seeOther: 'api/http.ts',
  formPage: 'api/http.ts',
  Flash: 'shared/flash.ts',
  iso: 'shared/time.ts',
  utcDay: 'shared/time.ts',
  isPublicActor: 'shared/actor.ts',
  PUBLIC_ACTOR_PATTERN: 'shared/actor.ts',
  speakerOf: 'api/agents/speaker.ts',
  Speaker: 'api/record/speakers.ts',
  SameOriginRule: 'api/route.ts',
};

describe('each repeated helper exists once', () => {
  for (const [name, home] of Object.entries(ONCE)) {
    it(`${name} is defined only in ${home}`, () => {
      expect(definitionsOf(name)).toEqual([home]);
    });
  }

  it('the public actor format is written once', () => {
    const writers = files
      .filter((file) => file.text.includes('sovereign:[0-9a-f]{4}'))
      .map((file) => file.path);
    expect(writers).toEqual(['shared/actor.ts']);
  });
});

describe('the router decides JSON or page', () => {
  it('no route asks wantsJson itself: only the router, api/http.ts and the sign-in redirect do', () => {
    expect(callersOf('wantsJson').sort()).toEqual(['api/http.ts', 'api/plugins/session.ts', 'api/router.ts']);
  });

  it('same-origin is checked by the plugin only (the census probes the projector itself)', () => {
    expect(callersOf('isSameOriginRequest').sort()).toEqual(['api/plugins/same-origin.ts']);
  });

  it('an agent proof is resolved to a speaker in the agents family only', () => {
    expect(callersOf('requireAgentProof').every((path) => path.startsWith('api/agents/'))).toBe(true);
  });
});
