import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { dropDatabase, prepareTemplate, serverUrl } from './db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
  }
}

/**
 * Runs once before the suite: a migrated template database on the real PostgreSQL, if any,
 * named per run so that concurrent runs on one server never drop each other's template.
 */
export default async function setup(project: TestProject) {
  const url = serverUrl();
  const name = `civitas_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
  project.provide('templateDb', name);
  if (!url) return;
  await prepareTemplate(url, name);
  return async () => {
    await dropDatabase(url, name);
  };
}
