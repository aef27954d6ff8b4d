import { Migration0001Foundation } from './Migration0001Foundation.ts';

/** Every migration, in order. Listed explicitly: no file globbing at start-up. */
export const MIGRATIONS = [{ name: 'Migration0001Foundation', class: Migration0001Foundation }];
