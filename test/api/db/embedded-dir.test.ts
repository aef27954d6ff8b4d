/**
 * The embedded data directory (api/db/embedded-dir.ts): created by a process of its own, then
 * opened here with the service's settings (docs/scale.md "Embedded").
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childArgv, createEmbeddedApart, openDataDir } from '../../../api/db/embedded-dir.ts';
import { WIRE_PARSERS } from '../../../api/db/wire-types.ts';

const root = mkdtempSync(join(tmpdir(), 'civitas-embedded-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('an embedded data directory', () => {
  it('is created apart, once, and opened with 32 MB of shared buffers', async () => {
    const dir = join(root, 'pg');
    await createEmbeddedApart(dir);
    const version = join(dir, 'PG_VERSION');
    expect(existsSync(version)).toBe(true);
    const created = statSync(version).mtimeMs;
    await createEmbeddedApart(dir); // already there: nothing done
    expect(statSync(version).mtimeMs).toBe(created);

    const pglite = await openDataDir(dir, WIRE_PARSERS);
    try {
      const { rows } = await pglite.query<{ shared_buffers: string }>('show shared_buffers');
      expect(rows[0]?.shared_buffers).toBe('32MB');
      const work = await pglite.query<{ maintenance_work_mem: string }>('show maintenance_work_mem');
      expect(work.rows[0]?.maintenance_work_mem).toBe('16MB');
    } finally {
      await pglite.close();
    }
  });

  it("gives the creating process this one's flags, but no debugger or watch mode", () => {
    expect(
      childArgv(['--liftoff-only', '--inspect=9229', '--inspect-brk', '--watch', '--max-old-space-size=256']),
    ).toEqual(['--liftoff-only', '--max-old-space-size=256']);
  });

  it('says why when the process creating it fails', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    await expect(createEmbeddedApart(join(file, 'pg'))).rejects.toThrow(
      /creating the embedded database in .* failed/,
    );
  });
});
