/**
 * The operator's metrics listener (CIVITAS_METRICS_PORT, on CIVITAS_METRICS_HOST: loopback unless
 * said otherwise). A plain HTTP server apart from the public one: it answers `GET /metrics` in
 * Prometheus's text format and nothing else, so no route, hook, budget or page of the service is
 * reachable through it, and the public port never serves metrics.
 *
 * One process: its own registry (api/plugins/metrics.ts). Under node:cluster the primary, which
 * serves no requests, opens the listener and answers with the sum over its workers (prom-client's
 * AggregatorRegistry asks each over the cluster's IPC channel), plus its own series: workers
 * replaced and workers alive. A replaced worker's counters start again from zero; Prometheus's
 * rate() and increase() treat that as a counter reset.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import { metricsRegistry } from './plugins/metrics.ts';
import { withoutQuery } from '../shared/url-path.ts';

export interface MetricsListener {
  /** http://host:port of the listener */
  address: string;
  close(): Promise<void>;
}

export interface MetricsOptions {
  port: number;
  host: string;
  /** In the cluster's primary: its workers, whose series are summed. Absent → this process's own. */
  workers?: { restarts(): number; alive(): number };
}

/** In a cluster worker: answer the primary's requests for this process's series. */
export function answerPrimaryForMetrics(): void {
  AggregatorRegistry.setRegistries([metricsRegistry]);
  // The constructor installs prom-client's worker-side IPC listener.
  new AggregatorRegistry();
}

export async function listenForMetrics(options: MetricsOptions): Promise<MetricsListener> {
  const read = metricsReader(options.workers);
  const server = createServer((request, response) => {
    const path = withoutQuery(request.url ?? '');
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Only GET /metrics is served here.\n');
      return;
    }
    read().then(
      (text) => {
        response.writeHead(200, { 'content-type': metricsRegistry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: Error) => {
        response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`metrics unavailable: ${error.message}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    address: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The text a scrape answers: this process's series, or the workers' sum; then the cluster's own. */
function metricsReader(workers: MetricsOptions['workers']): () => Promise<string> {
  const own = new Registry();
  new Counter({
    name: 'civitas_worker_restarts_total',
    help: 'API workers that died and were replaced since start (CIVITAS_WORKERS > 1; else always 0)',
    registers: [own],
    collect() {
      this.reset();
      this.inc(workers?.restarts() ?? 0);
    },
  });
  new Gauge({
    name: 'civitas_workers',
    help: 'API processes serving now (CIVITAS_WORKERS; 1 without the cluster)',
    registers: [own],
    collect() {
      this.set(workers?.alive() ?? 1);
    },
  });
  const aggregator = workers ? new AggregatorRegistry() : undefined;
  return async () => {
    const served = aggregator ? await aggregator.clusterMetrics() : await metricsRegistry.metrics();
    return `${served.trimEnd()}\n${await own.metrics()}`;
  };
}
