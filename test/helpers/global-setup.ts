import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dropDatabase, prepareEmbeddedImage, prepareTemplate, serverUrl } from './db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
    /** Path of the migrated embedded data directory (tarball); empty on a real PostgreSQL. */
    embeddedImage: string;
  }
}

/**
 * Runs once before the suite and migrates once for the whole run: a template database on the
 * real PostgreSQL (named per run, so concurrent runs on one server never drop each other's
 * template), or, embedded, one migrated PGlite dumped to a temporary tarball each file loads.
 */
export default async function setup(project: TestProject) {
  const url = serverUrl();
  const name = `civitas_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
  project.provide('templateDb', name);
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
  await prepareTemplate(url, name);
  return async () => {
    await dropDatabase(url, name);
  };
}
