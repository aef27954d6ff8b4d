/**
 * Drops what is left of a run's databases after the suite (test/helpers/postgres.ts startReaper):
 * `node test/helpers/drop-run.ts <server url> <run tag>`, detached, so `npm test` ends without
 * waiting on the checkpoints its drops make.
 */
import { dropRun } from './postgres.ts';

const [url, run] = process.argv.slice(2);
if (!url || !run) {
  console.error('usage: node test/helpers/drop-run.ts <server url> <run tag>');
  process.exit(2);
}
await dropRun(url, run);
