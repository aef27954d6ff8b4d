/**
 * Starting does not rebuild what is built: `npm start` is `npm run build && node api/server.ts`,
 * and scripts/build.ts keeps dist/ untouched when it was built from the same inputs
 * (scripts/build-inputs.ts). Needs `npm run build` first (`npm test` does it); if dist/ is stale the
 * first run here builds it, and the run after it must keep it.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
    if (!/dist\/ kept/.test(build())) build(); // dist/ was stale: now it is built
    const before = statSync(entry).mtimeMs;
    expect(build()).toMatch(/site unchanged since the last build .*: dist\/ kept/);
    expect(statSync(entry).mtimeMs).toBe(before);
  });

  it('is what npm start runs before the server', async () => {
    const { default: manifest } = await import('../../package.json', { with: { type: 'json' } });
    expect(manifest.scripts.start).toBe('npm run build && node api/server.ts');
  });
});
