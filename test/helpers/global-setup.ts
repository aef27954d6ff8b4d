import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { prepareEmbeddedImage, serverUrl } from './db.ts';
import { prepareTemplate, runTag, startReaper } from './postgres.ts';
import { refreshModuleGraph } from '../../scripts/module-graph.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Tag of this run's databases on a real PostgreSQL (see postgres.ts). */
    dbRun: string;
    /** Path of the migrated embedded data directory (tarball); empty on a real PostgreSQL. */
    embeddedImage: string;
  }
}

/**
 * Runs once before the suite and migrates once for the whole run: a template database on the
 * real PostgreSQL, which each file copies, or, embedded, one migrated PGlite dumped to a temporary
 * tarball each file loads.
 */
export default async function setup(project: TestProject) {
  const url = serverUrl();
  const run = runTag();
  project.provide('dbRun', run);
  // The unit lane (`npm run test:unit`: shared/ logic and the structure rules) opens no database.
  if (process.env.CIVITAS_TEST_LANE === 'unit') {
    project.provide('embeddedImage', '');
    return;
  }
  // The boundary inventory traces the code through the build's module graph: keep it current.
  refreshModuleGraph(join(import.meta.dirname, '..', '..'));
  if (!url) {
    const dir = await mkdtemp(join(tmpdir(), 'civitas-test-'));
    const image = join(dir, 'migrated.tar');
    await prepareEmbeddedImage(image);
    project.provide('embeddedImage', image);
    return async () => {
      await rm(dir, { recursive: true, force: true });
    };
  }
  project.provide('embeddedImage', '');
  await prepareTemplate(url, run);
  startReaper(url, run);
}
