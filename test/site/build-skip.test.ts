/**
 * Starting does not rebuild what is built: `npm start` is `npm run build && node api/server.ts`,
 * and scripts/build.ts keeps dist/ untouched when it was built from the same inputs
 * (scripts/build-inputs.ts). Needs `npm run build` first (`npm test` does it). A stale dist/ fails
 * here instead of being rebuilt: a rebuild removes dist/ under the page tests running beside this one.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildInputsHash, builtFrom } from '../../scripts/build-inputs.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entry = join(root, 'dist', 'server', 'entry.mjs');

const build = () => {
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'build.ts')], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CIVITAS_BUILD_FORCE: '' },
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
};

describe('npm start on a built site', () => {
  it('keeps dist/ as it is: nothing is rebuilt', () => {
    const fresh = builtFrom(join(root, 'dist'), buildInputsHash(root));
    expect(fresh, 'dist/ is older than the site: run `npm run build` first').toBe(true);
    const before = statSync(entry).mtimeMs;
    expect(build()).toMatch(/site unchanged since the last build .*: dist\/ kept/);
    expect(statSync(entry).mtimeMs).toBe(before);
  });

  it('is what npm start runs before the server', async () => {
    const { default: manifest } = await import('../../package.json', { with: { type: 'json' } });
    expect(manifest.scripts.start).toBe(
      'npm run build && MALLOC_ARENA_MAX=2 node --max-semi-space-size=32 --max-old-space-size=256 --liftoff-only api/server.ts',
    );
  });
});
