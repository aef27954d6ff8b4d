/**
 * GET /api/version. The payload schema names come from every contract, and the census's inventory
 * traces a route's reach through its module's imports: so the names are handed in by the wiring
 * file (api/families.ts wireSchemaNames), a registry this family owns, and /health, /_health and
 * this route stay free of every projector (test/api/boundaries/inventory.test.ts).
 */
import { APP_VERSION } from '../config.ts';

let schemaNames: readonly string[] = [];

/** Called once by the wiring file with shared/registry/schema-names.ts payloadSchemaNames(). */
export function registerSchemaNames(names: readonly string[]): void {
  schemaNames = names;
}

/**
 * Versions of the app, the API contract and each payload schema the answers carry (INTERFACE.md
 * Versioning), the names read from the contracts.
 */
export function versions() {
  return { app: APP_VERSION, api: '1' as const, schemas: [...schemaNames] };
}
