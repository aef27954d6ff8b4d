/**
 * The run's reaper (test/helpers/postgres.ts `reap`), started detached by the global setup:
 * `node test/helpers/reaper.ts <server url> <run tag>`. It drops the run's retired copies as the
 * run goes, and the rest of the run once the run's process has ended.
 */
import { reap } from './postgres.ts';

const [url, run] = process.argv.slice(2);
if (!url || !run) {
  console.error('usage: node test/helpers/reaper.ts <server url> <run tag>');
  process.exit(2);
}
await reap(url, run);
