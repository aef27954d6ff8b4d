import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { exitIfLocked } from './db/data-dir-lock.ts';
import { startJobs, type RunningJobs } from './jobs/runner.ts';

/** Listen and shut down gracefully; everything else lives in app.ts. */
const config = loadConfig();
const app = await buildApp({ logger: true }).catch(exitIfLocked);
let jobs: RunningJobs | undefined;

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await jobs?.stop();
    await app.close();
    process.exit(0);
  });
}

await app.listen({ port: config.port, host: config.host });
jobs = startJobs(app); // periodic work (sealing anchors): each job is taken by exactly one process
app.log.info(`civitas at ${config.origin} (${app.civitas.db.embedded ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`);
