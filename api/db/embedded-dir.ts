/**
 * The embedded database in a data directory, opened with the service's settings and vacuumed (PGlite
 * has no autovacuum). A new directory is created (PostgreSQL's initdb, as PGlite runs it) in a short
 * process of its own, never in the API process. PGlite creates a directory with a second PGlite
 * that runs initdb in memory, then copies its files over as a tarball: the process that did it
 * kept 574 MB resident afterwards (165 MB after opening an existing directory) and the API process
 * peaked at 1.1 GB on its first start (docs/scale.md "Embedded"). The child exits and gives it all
 * back; the API process then opens the directory as on any later start and migrates it.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type ParserOptions } from '@electric-sql/pglite';
import { EMBEDDED_START } from './embedded-settings.ts';

const SELF = fileURLToPath(import.meta.url);

/** This process's Node flags for the child, without those that would hold it or take a port (a debugger, watch mode). */
export function childArgv(execArgv: readonly string[]): string[] {
  return execArgv.filter((flag) => !/^--(inspect|debug|watch)/.test(flag));
}

/** Creates PostgreSQL's files in `dir` (PGlite's `pg` directory) unless they are there already. */
export async function createEmbeddedApart(dir: string): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  await new Promise<void>((resolve, reject) => {
    const child = fork(SELF, [dir], {
      execArgv: childArgv(process.execArgv),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `creating the embedded database in ${dir} failed (exit ${code}): ${stderr.slice(-2000)}`,
            ),
          ),
    );
  });
}

/** PGlite on PostgreSQL's files in `dir`, created apart first if there are none. */
export async function openDataDir(dir: string, parsers: ParserOptions): Promise<PGlite> {
  await createEmbeddedApart(dir);
  const pglite = await PGlite.create({ dataDir: dir, parsers, startParams: EMBEDDED_START });
  await pglite.exec('vacuum');
  return pglite;
}

if (process.argv[1] === SELF) {
  const pglite = await PGlite.create({ dataDir: process.argv[2]!, startParams: EMBEDDED_START });
  await pglite.close();
}
