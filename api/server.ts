import cluster from 'node:cluster';
import pino from 'pino';
import { buildApp } from './app.ts';
import { serveWorkers, workerCount } from './cluster.ts';
import { loadConfigOrExit } from './config.ts';
import { exitIfLocked } from './db/data-dir-lock.ts';
import { awaitDatabase, exitIfRefused } from './db/startup.ts';
import { startJobs, type RunningJobs } from './jobs/runner.ts';

/** Listen and shut down gracefully; everything else lives in app.ts. */
const config = loadConfigOrExit();
const workers = workerCount(!config.databaseUrl);
// Once, in the process that starts first: a missing database stops here (one line), an unreachable
// one is waited for with backoff (api/db/startup.ts).
if (config.databaseUrl && !cluster.isWorker)
  await awaitDatabase(config.databaseUrl, {
    say: (line) => process.stderr.write(`civitas: ${line}\n`),
  }).catch(exitIfRefused);

if (workers > 1 && cluster.isPrimary) {
  // CIVITAS_WORKERS: this process only forks and replaces the workers (api/cluster.ts).
  const log = pino({ level: config.logLevel });
  const running = await serveWorkers(workers, { log: (line) => log.warn(line) });
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, async () => {
      if (closing) return;
      closing = true;
      log.info({ signal }, 'shutting down the workers');
      await running.stop();
      process.exit(0);
    });
  }
  log.info(`civitas at ${config.origin} (PostgreSQL, ${workers} workers on ${running.address})`);
} else {
  await serve();
}

async function serve() {
  const app = await buildApp({ logger: true }).catch(exitIfLocked).catch(exitIfRefused);
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
  await app.listen({
    port: config.port,
    host: config.host,
    // The socket, not a URL to open: the one address printed is the configured origin (below),
    // which the same-origin checks compare against.
    listenTextResolver: (address) => `listening on ${address.replace(/^https?:\/\//, '')}`,
  });
  // Periodic work (sealing anchors …): every process runs the timers; each once-job's advisory lock
  // makes exactly one process do it (api/jobs/runner.ts).
  jobs = startJobs(app);
  if (!cluster.isWorker)
    app.log.info(
      `civitas at ${config.origin} (${app.civitas.db.embedded ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`,
    );
}
