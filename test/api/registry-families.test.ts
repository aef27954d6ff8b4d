import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES_BY_FAMILY } from '../../api/families.ts';
import { findRoute } from '../../shared/registry/index.ts';

/**
 * Rooms named for what they hold: every implemented route's registry `family` is the api/ folder
 * whose routes.ts exports it (a subfamily in a subfolder, like api/organism/mind, names the top
 * folder). The folder is proved by importing api/<family>/routes.ts and finding the very array
 * api/families.ts registers, so no source text is read.
 */
const API = new URL('../../api/', import.meta.url);

describe('registry families are the folders that implement them', () => {
  it('registers each family from its own api/<family>/routes.ts', async () => {
    for (const [folder, routes] of Object.entries(ROUTES_BY_FAMILY)) {
      const module = (await import(new URL(`${folder}/routes.ts`, API).href)) as Record<string, unknown>;
      expect(Object.values(module), `api/${folder}/routes.ts`).toContain(routes);
    }
  });

  it('gives every implemented route the family of its folder', () => {
    const wrong: string[] = [];
    for (const [folder, routes] of Object.entries(ROUTES_BY_FAMILY)) {
      for (const route of routes) {
        const family = findRoute(route.key)?.family;
        if (family !== folder)
          wrong.push(`${route.key}: registry family ${family}, implemented in api/${folder}/`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('leaves no api/ folder with routes out of the families', () => {
    const folders = readdirSync(API, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/routes.ts`, API)))
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual(Object.keys(ROUTES_BY_FAMILY).sort());
  });
});
