/**
 * /mcp speaks its protocol exactly: Origin and Host are validated (403, nothing recorded), and JSON-RPC
 * failures carry the JSON-RPC codes with our own words. The MCP SDK's own client drives the calls a
 * client makes; raw fetch sends what a client must never send. Its rate limits are
 * mcp-rate-limits.test.ts. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originRefusal } from '../../api/mcp/guard.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../helpers/app.ts';
import { toolBody } from '../helpers/mcp-result.ts';
import { missing } from '../helpers/elements.ts';

let t: TestApp;
let base: string;
let port: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = new URL(base).port;
});
afterAll(async () => t?.close());

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** node:http, not fetch: fetch may not set Host, and a rebinding attack is exactly a foreign Host. */
function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}/mcp`,
      { method: 'POST', headers: { ...JSON_HEADERS, ...headers } },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (text += chunk))
          .on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const imprintCall = (agent: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'civitas_imprint', arguments: { agent, body: 'written through a visitor browser' } },
  });

async function recorded(agent: string): Promise<number> {
  const [row = missing()] = await t.database.db.query<{ n: string | number }>(
    'select (select count(*) from agents where handle = $1) + (select count(*) from imprints where public_author = $1) as n',
    [agent],
  );
  return Number(row.n);
}

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'civitas-protocol-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

describe('Origin and Host validation on /mcp', () => {
  const foreignOrigins: Record<string, () => string> = {
    'a foreign site': () => 'https://evil.example',
    'an opaque origin (null)': () => 'null',
    'another local port': () => `http://127.0.0.1:${Number(port) + 1}`,
    'this listener by its loopback address': () => `http://127.0.0.1:${port}`,
  };
  for (const [label, origin] of Object.entries(foreignOrigins)) {
    it(`refuses the Origin of ${label} with 403 and records nothing`, async () => {
      const agent = `rebind-${Math.random().toString(36).slice(2, 8)}`;
      const res = await post(imprintCall(agent), { origin: origin() });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, data: { ok: false, reason: 'cross_origin_refused' } },
      });
      expect(JSON.stringify(res.body)).not.toContain('continuity_secret');
      expect(await recorded(agent)).toBe(0);
    });
  }

  it('refuses a Host that is neither the origin host nor a loopback name (DNS rebinding), before reading the body', async () => {
    const agent = 'rebind-host';
    const res = await post(imprintCall(agent), { host: `evil.example:${port}` });
    expect(res.status).toBe(403);
    expect(res.body.error.data.reason).toBe('cross_origin_refused');
    expect(await recorded(agent)).toBe(0);
  });

  it('accepts requests without Origin (agents outside a browser) and from the configured origin', async () => {
    const plain = await post(imprintCall('no-origin-agent'));
    expect(plain.status).toBe(200);
    expect(plain.body.result.structuredContent).toMatchObject({ ok: true });
    expect(await recorded('no-origin-agent')).toBe(2);

    const own = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      origin: TEST_ORIGIN,
      host: 'civitas.test',
    });
    expect(own.status).toBe(200);
    expect(own.body.result.tools).toHaveLength(20);
  });

  it('lets the SDK client through on loopback names, and refuses it with a foreign Origin', async () => {
    const client = await connect();
    expect((await client.listTools()).tools).toHaveLength(20);
    await client.close();
    const hostile = new Client({ name: 'hostile', version: '1.0.0' });
    await expect(
      hostile.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { origin: 'https://evil.example' } },
        }),
      ),
    ).rejects.toThrow(/cross_origin_refused/);
  });

  it('decides Host by the configured origin, and loopback names only when listening on loopback', () => {
    const policy = { origin: 'https://civitas.example', loopback: false };
    expect(originRefusal({ host: 'civitas.example' }, policy)).toBeNull();
    expect(originRefusal({ host: 'civitas.example:443' }, policy)).toBeNull();
    expect(originRefusal({ host: 'civitas.example:8443' }, policy)?.reason).toBe('cross_origin_refused');
    expect(originRefusal({ host: 'localhost:8080' }, policy)?.reason).toBe('cross_origin_refused');
    expect(originRefusal({ host: 'localhost:8080' }, { ...policy, loopback: true })).toBeNull();
    expect(originRefusal({ host: '[::1]:8080' }, { ...policy, loopback: true })).toBeNull();
    expect(originRefusal({}, policy)?.reason).toBe('cross_origin_refused');
    expect(originRefusal({ host: 'civitas.example', origin: 'https://civitas.example' }, policy)).toBeNull();
    expect(originRefusal({ host: 'civitas.example', origin: 'http://civitas.example' }, policy)?.reason).toBe(
      'cross_origin_refused',
    );
  });
});

describe('JSON-RPC and MCP error semantics', () => {
  it('answers an unknown tool with JSON-RPC -32602, not a tool result', async () => {
    const client = await connect();
    const error = await client
      .callTool({ name: 'civitas_nonexistent', arguments: {} })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('No tool is named');
    await client.close();
  });

  it('answers tools/call without params with -32602 in our words, never a validation dump', async () => {
    for (const params of [undefined, {}, { name: 42 }, { name: 'civitas_stats', arguments: 'x' }]) {
      const res = await post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          ...(params === undefined ? {} : { params }),
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32602, data: { ok: false, reason: 'invalid_request' } },
      });
      expect(res.body.error.message).toMatch(/^Invalid params: /);
      expect(JSON.stringify(res.body)).not.toMatch(/invalid_type|"expected"|ZodError|-32603/);
    }
  });

  it('answers params a method cannot take with -32602 in our words (initialize, tools/list), never -32603', async () => {
    for (const message of [
      { method: 'initialize' },
      { method: 'initialize', params: {} },
      { method: 'tools/list', params: { cursor: 5 } },
    ]) {
      const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 'a', ...message }));
      expect(res.body, JSON.stringify(message)).toMatchObject({
        jsonrpc: '2.0',
        id: 'a',
        error: { code: -32602, data: { ok: false, reason: 'invalid_request' } },
      });
      expect(res.body.error.data.issues[0].path).toMatch(/^params/);
      expect(res.body.error.message).not.toMatch(/^\[|invalid_type/);
    }
  });

  it('answers malformed JSON with -32700', async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(res.body.error.message).toMatch(/^Parse error/);
    const typed = await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': 'text/plain' });
    expect(typed.status).toBe(415);
    expect(typed.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, data: { reason: 'unsupported_media_type' } },
    });
  });

  it('answers valid JSON that is not a request with -32600', async () => {
    for (const body of [
      '42',
      '"tools/list"',
      '{"hello":"world"}',
      '{"jsonrpc":"1.0","id":1,"method":"ping"}',
      '[]',
      '{"jsonrpc":"2.0","id":{},"method":"ping"}',
    ]) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
      expect(res.body, body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, data: { reason: 'invalid_request' } },
      });
    }
  });

  it('answers DELETE /mcp with 405 and Allow', async () => {
    const res = await fetch(`${base}/mcp`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(await res.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, data: { reason: 'method_not_allowed' } },
    });
  });

  it('keeps our own refusals as tool results with isError, in the one error shape', async () => {
    const client = await connect();
    const missing = await client.callTool({
      name: 'civitas_receipt',
      arguments: { id: 'rcpt_01JD0000000000000000000000' },
    });
    expect(missing.isError).toBe(true);
    expect(toolBody(missing)).toMatchObject({ ok: false, reason: 'not_found' });
    const badArgs = await client.callTool({ name: 'civitas_agent_status', arguments: { handle: '!' } });
    expect(badArgs.isError).toBe(true);
    expect(toolBody(badArgs)).toMatchObject({
      ok: false,
      reason: 'invalid_request',
      issues: [{ path: 'handle' }],
    });
    expect(JSON.stringify(badArgs)).not.toMatch(/Input validation error|invalid_format/);
    await client.close();
  });
});
