import { Migration0001Foundation } from './Migration0001Foundation.ts';
import { Migration0002Sessions } from './Migration0002Sessions.ts';

/** Every migration, in order. Listed explicitly: no file globbing at start-up. */
export const MIGRATIONS = [
  { name: 'Migration0001Foundation', class: Migration0001Foundation },
  { name: 'Migration0002Sessions', class: Migration0002Sessions },
];
