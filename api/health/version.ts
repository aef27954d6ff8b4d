/**
 * GET /api/version in a module of its own: the payload schema names come from every contract,
 * and the census's inventory traces a route's reach through its module's imports, so /health and
 * /_health stay free of every projector (test/api/boundaries/inventory.test.ts).
 */
import { defineRoute } from '../route.ts';
import { APP_VERSION } from '../config.ts';
import { payloadSchemaNames } from '../../shared/registry/schema-names.ts';

/**
 * Versions of the app, the API contract and each payload schema the answers carry (INTERFACE.md
 * Versioning), the names read from the contracts (shared/registry/schema-names.ts).
 */
export function versions() {
  return { app: APP_VERSION, api: '1' as const, schemas: [...payloadSchemaNames()] };
}

export const versionRoutes = [
  defineRoute('GET /api/version', { handler: async () => ({ ok: true as const, ...versions() }) }),
];
