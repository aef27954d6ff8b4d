import cluster from 'node:cluster';
import pino from 'pino';
import { serveWorkers, workerCount, workerRestarts } from './cluster.ts';
import { loadConfigOrExit } from './config.ts';
import { exitIfLocked } from './db/data-dir-lock.ts';
import { awaitDatabase, exitIfRefused } from './db/startup.ts';
import { answerPrimaryForMetrics, listenForMetrics, type MetricsListener } from './metrics-listener.ts';
import { closeApp, onShutdownSignal, SHUTDOWN_SLACK_MS } from './shutdown.ts';
import { startTracing, tracingWanted, type Tracing } from './tracing.ts';

/** Listen and shut down gracefully (api/shutdown.ts); everything else lives in app.ts. */
const config = loadConfigOrExit();
const workers = workerCount(!config.databaseUrl);
// Once, in the process that starts first: a missing database stops here (one line), an unreachable
// one is waited for with backoff (api/db/startup.ts).
if (config.databaseUrl && !cluster.isWorker)
  await awaitDatabase(config.databaseUrl, {
    say: (line) => process.stderr.write(`civitas: ${line}\n`),
  }).catch(exitIfRefused);

if (workers > 1 && cluster.isPrimary) {
  // CIVITAS_WORKERS: this process only forks and replaces the workers (api/cluster.ts), and
  // serves the operator the sum of their metrics.
  const log = pino({ level: config.logLevel });
  const running = await serveWorkers(workers, { log: (line) => log.warn(line) });
  const metrics = config.metrics
    ? await metricsOrExit({
        ...config.metrics,
        workers: { restarts: () => workerRestarts, alive: running.alive },
      })
    : undefined;
  // Each worker drains within the grace and gives up SHUTDOWN_SLACK_MS later; one that is still
  // there then is killed, and the primary's own deadline comes after that.
  const workerDeadline = config.shutdownGraceMs + SHUTDOWN_SLACK_MS;
  onShutdownSignal(
    log,
    workerDeadline,
    async () => {
      await running.stop(workerDeadline);
      await metrics?.close();
    },
    'shutting down the workers',
  );
  log.info(`civitas at ${config.origin} (PostgreSQL, ${workers} workers on ${running.address})`);
  if (metrics) log.info(`metrics at ${metrics.address}/metrics`);
} else {
  await serve();
}

/** The metrics listener, or one line and exit 1 (its port taken, its host not an address here). */
function metricsOrExit(options: Parameters<typeof listenForMetrics>[0]): Promise<MetricsListener> {
  return listenForMetrics(options).catch((error: NodeJS.ErrnoException) => {
    process.stderr.write(
      `civitas cannot start: metrics listener on ${options.host}:${options.port}: ${error.code ?? error.message}\n`,
    );
    process.exit(1);
  });
}

async function serve() {
  // The app and its jobs (most of the code) load here, in a process that serves: a cluster's
  // primary only forks, and a refused start stops before this, so neither loads them (about a
  // CPU-second of compiling each).
  const [{ buildApp }, { startJobs }] = await Promise.all([import('./app.ts'), import('./jobs/runner.ts')]);
  // OpenTelemetry only when the OTEL_* variables ask for it (api/tracing.ts): loaded on demand.
  const tracing: Tracing | undefined = tracingWanted()
    ? await startTracing(process.env, (line) => process.stderr.write(`civitas: ${line}\n`))
    : undefined;
  const app = await buildApp({ logger: true, tracer: tracing?.tracer })
    .catch(exitIfLocked)
    .catch(exitIfRefused);
  let metrics: MetricsListener | undefined;
  onShutdownSignal(app.log, config.shutdownGraceMs, async () => {
    // Requests in flight are answered; then the job runs in flight finish (their onClose hook, below),
    // the last interval's vitals are written and the pool is closed (api/app.ts).
    await closeApp(app, config.shutdownGraceMs);
    await metrics?.close();
    await tracing?.shutdown();
  });
  // Periodic work (sealing anchors …): every process runs the timers; each once-job's advisory lock
  // makes exactly one process do it (api/jobs/runner.ts). Started before listening, so their stop
  // is an onClose hook that runs after the requests are drained and before the pool closes.
  startJobs(app);
  await app.listen({
    port: config.port,
    host: config.host,
    // The socket, not a URL to open: the one address printed is the configured origin (below),
    // which the same-origin checks compare against.
    listenTextResolver: (address) => `listening on ${address.replace(/^https?:\/\//, '')}`,
  });
  // The operator's metrics: a worker answers its primary; a lone process listens itself.
  if (config.metrics && cluster.isWorker) answerPrimaryForMetrics();
  else if (config.metrics) metrics = await metricsOrExit(config.metrics);
  if (!cluster.isWorker) {
    app.log.info(
      `civitas at ${config.origin} (${app.civitas.db.embedded ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`,
    );
    if (metrics) app.log.info(`metrics at ${metrics.address}/metrics`);
  }
}
