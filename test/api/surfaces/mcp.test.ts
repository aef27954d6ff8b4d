import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('civitas_progress', () => {
  it('answers the same projection as GET /api/progress, and refuses bad actors', async () => {
    await t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent: 'mcp-walker', body: 'hello' } });
    const http = (await t.app.inject({ method: 'GET', url: '/api/progress?actor=agent:mcp-walker' })).json();
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'progress-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'civitas_progress')?.annotations?.readOnlyHint).toBe(true);
    const viaMcp = (await client.callTool({ name: 'civitas_progress', arguments: { actor: 'agent:mcp-walker' } })).structuredContent as Record<string, unknown>;
    expect({ ...viaMcp, as_of: null }).toEqual({ ...http, as_of: null });
    expect((await client.callTool({ name: 'civitas_progress', arguments: { actor: 'robot:x' } })).isError).toBe(true);
    expect((await client.callTool({ name: 'civitas_progress', arguments: { actor: 'agent:nobody-here' } })).isError).toBe(true);
    await client.close();
  });
});
