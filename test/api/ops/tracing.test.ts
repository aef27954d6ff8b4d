/**
 * Optional OpenTelemetry traces: with OTEL_EXPORTER_OTLP_ENDPOINT set, the real process sends one
 * server span per request to an OTLP/HTTP receiver (a loopback server of this test), named by the
 * route template, child of the caller's `traceparent`, and carrying no raw URL.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracingWanted } from '../../../api/tracing.ts';
import { createTestDatabase, serverUrl, type TestDatabase } from '../../helpers/db.ts';
import { freePort } from '../../helpers/ports.ts';
import { runServer, type ServerProcess } from '../../helpers/server-process.ts';
import { until } from '../../helpers/wait.ts';

describe('tracingWanted', () => {
  it('follows the standard OTEL_* variables', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(
      tracingWanted({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBe(false);
    expect(tracingWanted({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(
      false,
    );
  });
});

type Attribute = { key: string; value: Record<string, unknown> };
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Attribute[];
}
const attributes = (list: Attribute[]) =>
  Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));

describe.skipIf(!serverUrl())('traces from the real process to an OTLP/HTTP receiver', () => {
  let database: TestDatabase;
  let dataDir: string;
  let receiver: Server;
  let server: ServerProcess;
  let api: string;
  const bodies: string[] = [];
  const spans: { span: OtlpSpan; resource: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'civitas-tracing-'));
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text = String(request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw);
        if (request.url === '/v1/traces') {
          bodies.push(text);
          for (const rs of JSON.parse(text).resourceSpans ?? [])
            for (const ss of rs.scopeSpans ?? [])
              for (const span of ss.spans ?? [])
                spans.push({ span, resource: attributes(rs.resource.attributes) });
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    server = runServer({
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      CIVITAS_DATA_DIR: dataDir,
      CIVITAS_LOG_LEVEL: 'info',
      CIVITAS_ACCESS_LOG_SAMPLE: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as { port: number }).port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    await server.until(/civitas at /);
  });
  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      expect(await server.exited, server.output().slice(-2000)).toBe(0);
    }
    receiver?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends a server span named by the route template, child of the caller, without the URL', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const res = await fetch(`${api}/api/agent/a-handle-not-to-leak?x=secret-query`, {
      headers: { traceparent: `00-${traceId}-${parentId}-01`, 'x-request-id': 'traced-1' },
    });
    expect(res.status).toBe(404);

    const found = await until(
      'the span to arrive',
      () => spans.find(({ span }) => span.traceId === traceId),
      {
        tries: 120,
      },
    ).catch(() => undefined);
    expect(found, server.output().slice(-2000)).toBeDefined();
    const { span, resource } = found!;
    expect(span.name).toBe('GET /api/agent/:handle');
    expect(span.parentSpanId).toBe(parentId);
    expect(span.kind).toBe(2); // SERVER
    expect(attributes(span.attributes)).toMatchObject({
      'http.route': '/api/agent/:handle',
      'http.request.method': 'GET',
      'http.response.status_code': 404,
      'civitas.request_id': 'traced-1',
    });
    expect(resource['service.name']).toBe('civitas');
    expect(bodies.join('\n')).not.toMatch(/a-handle-not-to-leak|secret-query/);
  });
});
