/**
 * Twins are equal: every read-only MCP tool answers exactly the projection its HTTP twin serves,
 * compared over real HTTP (the SDK's own client for the tool, fetch for the route) on one state.
 * Only measurements of the moment (uptime, database latency) are set aside.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS } from '../../api/families.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { toolBody } from '../helpers/mcp-result.ts';
import { firstOf, missing } from '../helpers/elements.ts';

let t: TestApp;
let base: string;
let client: Client;
let receiptId: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  for (const body of ['twins share one projection', 'a second thought about twins']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'twin-agent', body },
    });
    expect(res.statusCode).toBe(200);
  }
  const [row = missing()] = await t.database.db.query<{ id: string }>(
    'select id from receipts order by recorded_at desc limit 1',
  );
  receiptId = row.id;
  client = new Client({ name: 'civitas-twins', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

interface Twin {
  tool: string;
  args: Record<string, unknown>;
  http: { method?: 'GET' | 'POST'; path: string; body?: unknown };
}

const TWINS: Twin[] = [
  { tool: 'civitas_presence', args: {}, http: { path: '/api/presence' } },
  { tool: 'civitas_status', args: {}, http: { path: '/health' } },
  { tool: 'civitas_commons', args: {}, http: { path: '/commons' } },
  { tool: 'civitas_agent_status', args: { handle: 'twin-agent' }, http: { path: '/api/agent/twin-agent' } },
  {
    tool: 'civitas_certificate_verify',
    args: { certificate: 'eyJhbGciOiJFZERTQSJ9.e30.c2ln' },
    http: {
      method: 'POST',
      path: '/api/agent/certificate/verify',
      body: { certificate: 'eyJhbGciOiJFZERTQSJ9.e30.c2ln' },
    },
  },
  { tool: 'civitas_record', args: { limit: 10 }, http: { path: '/imprint?limit=10' } },
  { tool: 'civitas_search', args: { q: 'twins' }, http: { path: '/search?q=twins' } },
  { tool: 'civitas_stats', args: {}, http: { path: '/api/stats' } },
  { tool: 'civitas_boundaries', args: {}, http: { path: '/api/boundaries' } },
  { tool: 'civitas_receipt', args: { id: '{receipt}' }, http: { path: '/api/receipt/{receipt}' } },
  { tool: 'civitas_verify', args: { id: '{receipt}' }, http: { path: '/verify/{receipt}' } },
  { tool: 'civitas_lessons', args: { limit: 10 }, http: { path: '/api/hive/lessons?limit=10' } },
  { tool: 'civitas_why', args: { entity: 'agent:twin-agent' }, http: { path: '/api/why/agent:twin-agent' } },
  {
    tool: 'civitas_policy_evaluate',
    args: { action: 'imprint', actor: 'agent:twin-agent' },
    http: { path: '/api/policy/evaluate?action=imprint&actor=agent:twin-agent' },
  },
  { tool: 'civitas_constitution', args: {}, http: { path: '/api/constitution' } },
  { tool: 'civitas_calibration', args: {}, http: { path: '/api/calibration' } },
  { tool: 'civitas_oracle_quote', args: {}, http: { path: '/api/oracle' } },
];

/** Measurements of the moment differ between any two reads; everything else must not. */
const MOMENTARY = new Set(['uptime_s', 'latency_ms']);
function settled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(settled);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, MOMENTARY.has(key) ? '(momentary)' : settled(inner)]),
    );
  }
  return value;
}

async function viaHttp(twin: Twin['http']) {
  const res = await fetch(`${base}${twin.path.replace('{receipt}', receiptId)}`, {
    method: twin.method ?? 'GET',
    headers: { accept: 'application/json', ...(twin.body ? { 'content-type': 'application/json' } : {}) },
    body: twin.body ? JSON.stringify(twin.body) : undefined,
  });
  expect(res.headers.get('content-type')).toContain('application/json');
  return { status: res.status, body: await res.json() };
}

async function viaMcp(tool: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name: tool, arguments: args });
  return {
    isError: result.isError === true,
    body: toolBody(result),
    text: firstOf(result.content as { text: string }[]).text,
  };
}

describe('every read tool returns exactly its HTTP twin', () => {
  it('covers every read-only tool, each naming the route it is compared with', () => {
    const readOnly = MCP_TOOLS.filter((tool) => tool.annotations?.readOnlyHint)
      .map((tool) => tool.name)
      .sort();
    expect(TWINS.map((twin) => twin.tool).sort()).toEqual(readOnly);
    for (const twin of TWINS) {
      const declared = MCP_TOOLS.find((tool) => tool.name === twin.tool)!.twin!;
      expect(declared.split(' ')[0]).toBe(twin.http.method ?? 'GET');
    }
  });

  for (const twin of TWINS) {
    it(`${twin.tool} equals ${twin.http.method ?? 'GET'} ${twin.http.path}`, async () => {
      const args = Object.fromEntries(
        Object.entries(twin.args).map(([key, value]) => [key, value === '{receipt}' ? receiptId : value]),
      );
      const [mcp, http] = [await viaMcp(twin.tool, args), await viaHttp(twin.http)];
      expect(http.status).toBe(200);
      expect(mcp.isError).toBe(false);
      expect(settled(mcp.body)).toEqual(settled(http.body));
      expect(JSON.parse(mcp.text)).toEqual(mcp.body);
    });
  }

  it('refuses as its twin refuses: the same error body, as a tool result with isError', async () => {
    const unknown = 'rcpt_01JD0000000000000000000000';
    const mcp = await viaMcp('civitas_receipt', { id: unknown });
    const http = await viaHttp({ path: `/api/receipt/${unknown}` });
    expect(http.status).toBe(404);
    expect(mcp.isError).toBe(true);
    expect(mcp.body).toEqual(http.body);
  });
});
