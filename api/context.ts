import type { CivitasConfig } from './config.ts';
import type { Database } from './db/database.ts';

/**
 * Time as the service sees it: the database's (api/db/clock.ts), so every process agrees; tests
 * move it (naturalization and daily anchors depend on it).
 */
export interface Clock {
  now(): Date;
}

/** What every family's service receives: no globals, so two apps can live in one test process. */
export interface AppContext {
  config: CivitasConfig;
  db: Database;
  clock: Clock;
  keys: import('./keys.ts').ServiceKeys;
}
