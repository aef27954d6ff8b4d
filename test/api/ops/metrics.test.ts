/**
 * Prometheus metrics on the operator's listener (CIVITAS_METRICS_PORT), tested on the real process:
 * two workers on PostgreSQL, a few requests and an imprint, then a scrape of the primary, which
 * serves the sum of both workers; a worker killed is counted as a restart; the public port serves
 * no metrics.
 */
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../api/config.ts';
import { createTestDatabase, serverUrl, type TestDatabase } from '../../helpers/db.ts';
import { freePort } from '../../helpers/ports.ts';
import { runServer, type ServerProcess } from '../../helpers/server-process.ts';
import { until } from '../../helpers/wait.ts';
import { at } from '../../helpers/elements.ts';

describe('CIVITAS_METRICS_PORT', () => {
  it('is off when unset, on loopback by default, and never the public port', () => {
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ CIVITAS_METRICS_PORT: '' }).metrics).toBeUndefined();
    expect(loadConfig({ CIVITAS_METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ CIVITAS_METRICS_PORT: '9464', CIVITAS_METRICS_HOST: '0.0.0.0' }).metrics?.host).toBe(
      '0.0.0.0',
    );
    expect(() => loadConfig({ PORT: '8080', CIVITAS_METRICS_PORT: '8080' })).toThrow(ConfigError);
    expect(() => loadConfig({ CIVITAS_METRICS_PORT: 'many' })).toThrow(/CIVITAS_METRICS_PORT/);
  });
});

/** One request on its own connection, so the primary hands it to either worker. */
function send(url: string, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, agent: false, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += String(chunk)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: at(match, 1), labels, value: Number(match[3]) };
    });
}
const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe.skipIf(!serverUrl())('the metrics listener of two workers on PostgreSQL', () => {
  let database: TestDatabase;
  let dataDir: string;
  let server: ServerProcess;
  let api: string;
  let metrics: string;
  const scrape = async () => {
    const res = await send(`${metrics}/metrics`);
    expect(res.status).toBe(200);
    return { text: res.text, samples: parse(res.text) };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'civitas-metrics-'));
    const [port, metricsPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${port}`;
    metrics = `http://127.0.0.1:${metricsPort}`;
    server = runServer({
      DATABASE_URL: database.url,
      CIVITAS_WORKERS: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      CIVITAS_DATA_DIR: dataDir,
      CIVITAS_METRICS_PORT: String(metricsPort),
      CIVITAS_LOG_LEVEL: 'info',
      CIVITAS_ACCESS_LOG_SAMPLE: '0',
    });
    await server.until(/metrics at http:\/\/127\.0\.0\.1:\d+\/metrics/);
  });
  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      const code = await server.exited;
      expect(code, server.output().slice(-2000)).toBe(0);
    }
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the sum of both workers: requests by route template, imprint batches, pool, jobs', async () => {
    for (let i = 0; i < 10; i++) expect((await send(`${api}/api/stats`)).status).toBe(200);
    expect((await send(`${api}/api/agent/nobody-by-this-name`)).status).toBe(404);
    const imprint = await send(
      `${api}/api/agent/imprint`,
      'POST',
      JSON.stringify({ agent: 'metrics-probe', body: 'counted in a batch' }),
    );
    expect(imprint.status, imprint.text).toBe(200);

    // Job runs come from the workers' timers (first tick a second after start).
    const { text, samples } = await until('a job run to be counted', async () => {
      const scraped = await scrape();
      return valueOf(scraped.samples, 'civitas_job_runs_total', { job: 'ledger.seal', outcome: 'ok' })
        ? scraped
        : undefined;
    });
    const duration = 'civitas_http_request_duration_seconds_count';
    expect(valueOf(samples, duration, { route: '/api/stats', method: 'GET', status: '200' })).toBe(10);
    expect(valueOf(samples, duration, { route: '/api/agent/:handle', method: 'GET', status: '404' })).toBe(1);
    expect(valueOf(samples, duration, { route: '/api/agent/imprint', method: 'POST', status: '200' })).toBe(
      1,
    );
    // Templates only: no raw URL (and so no handle) is ever a label value.
    expect(text).not.toContain('nobody-by-this-name');
    expect(valueOf(samples, 'civitas_imprint_batch_size_count')).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'civitas_imprint_batch_size_sum')).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'civitas_imprint_batch_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    // Both workers' pools (CIVITAS_DB_POOL_MAX 10 each): the sum proves both were asked.
    expect(valueOf(samples, 'civitas_db_pool_max')).toBe(20);
    expect(valueOf(samples, 'civitas_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    // A gauge of this instant: a job may be waiting for a connection as the scrape happens.
    expect(valueOf(samples, 'civitas_db_pool_waiting')).toBeTypeOf('number');
    expect(valueOf(samples, 'civitas_job_duration_seconds_count', { job: 'ledger.seal' })).toBeGreaterThan(0);
    expect(valueOf(samples, 'civitas_workers')).toBe(2);
    expect(valueOf(samples, 'civitas_worker_restarts_total')).toBe(0);
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('counts a worker that died and was replaced', async () => {
    const [pid] = execFileSync('ps', ['--ppid', String(server.child.pid), '-o', 'pid='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim());
    process.kill(Number(pid), 'SIGKILL');
    await until('the restart to be counted', async () => {
      const { samples } = await scrape();
      return valueOf(samples, 'civitas_worker_restarts_total') === 1 &&
        valueOf(samples, 'civitas_workers') === 2
        ? true
        : undefined;
    });
    await server.until(/worker \d+ died \(SIGKILL\); starting another/);
  });

  it('serves only /metrics there, and no metrics on the public port', async () => {
    expect((await send(`${metrics}/`)).status).toBe(404);
    expect((await send(`${metrics}/metrics`, 'POST')).status).toBe(404);
    const pub = await send(`${api}/metrics`);
    expect(pub.status).toBe(404);
    expect(pub.text).not.toContain('civitas_http_request_duration_seconds');
  });
});
