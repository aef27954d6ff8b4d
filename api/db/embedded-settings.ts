import { PGlite } from '@electric-sql/pglite';

/**
 * The embedded service's PostgreSQL settings, after PGlite's own start parameters (docs/scale.md
 * "Embedded"). PGlite runs PostgreSQL inside the API process's WebAssembly memory, which grows and
 * never shrinks: PostgreSQL's default 128 MB of shared buffers took it from 128 to 189 MB, and the
 * vacuum at every open fills maintenance_work_mem (64 MB by default). Pages beyond the buffers are
 * read from the operating system's cache, outside the process. In-memory databases (the tests)
 * keep PGlite's defaults.
 */
export const EMBEDDED_SETTINGS: readonly string[] = [
  '-c',
  'shared_buffers=32MB',
  '-c',
  'maintenance_work_mem=16MB',
];

/** PGlite's `startParams` for a data directory: its defaults (single-user mode, no workers…) and ours. */
export const EMBEDDED_START: string[] = [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS];
