import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { toolBody } from '../helpers/mcp-result.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t?.close());

async function connect(): Promise<Client> {
  const client = new Client({ name: 'civitas-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return client;
}

describe('MCP endpoint (the SDK client over real HTTP)', () => {
  it('answers GET /mcp with JSON describing the endpoint', async () => {
    const res = await fetch(`${base}/mcp`);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await res.json();
    expect(body.endpoint).toBe('/mcp');
    expect(body.tools.map((tool: { name: string }) => tool.name)).toContain('civitas_status');
  });

  it('lists tools with JSON-schema inputs and runs presence with humans and agents as distinct kinds', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'mcp-visitor', body: 'hello from an agent' },
    });
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'civitas_presence',
        'civitas_status',
        'civitas_agent_status',
        'civitas_record',
      ]),
    );
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    // INTERFACE.md: the endpoint offers 20 tools (DESIGN.md section 5 names them).
    expect(names.sort()).toEqual([
      'civitas_agent_status',
      'civitas_boundaries',
      'civitas_calibration',
      'civitas_certificate_verify',
      'civitas_commons',
      'civitas_constitution',
      'civitas_feedback_report',
      'civitas_heartbeat',
      'civitas_imprint',
      'civitas_lessons',
      'civitas_oracle_quote',
      'civitas_policy_evaluate',
      'civitas_presence',
      'civitas_receipt',
      'civitas_record',
      'civitas_search',
      'civitas_stats',
      'civitas_status',
      'civitas_verify',
      'civitas_why',
    ]);

    const presence = await client.callTool({ name: 'civitas_presence', arguments: {} });
    const census = presence.structuredContent as Record<string, unknown>;
    expect(census).toHaveProperty('humans');
    expect(census).toHaveProperty('agents');
    expect(census.agents).toBe('fewer than 5');
    expect(census).toHaveProperty('confluences');
    expect(JSON.stringify(census)).not.toContain('mcp-visitor');
    await client.close();
  });

  it('serves civitas_status (readiness, as GET /health), the counts and the agent status projection identical to its HTTP twin', async () => {
    const client = await connect();
    // civitas_status names GET /health as its twin, so it answers readiness; the counts are civitas_stats.
    const status = (await client.callTool({ name: 'civitas_status', arguments: {} }))
      .structuredContent as Record<string, any>;
    expect(status).toMatchObject({ ok: true, status: 'ready', database: { ok: true } });
    const stats = (await client.callTool({ name: 'civitas_stats', arguments: {} }))
      .structuredContent as Record<string, any>;
    expect({ humans: stats.humans, agents: stats.agents }).toEqual({ humans: 0, agents: 1 });
    expect(stats.imprints_lifetime).toBeGreaterThanOrEqual(1);

    const viaMcp = (
      await client.callTool({ name: 'civitas_agent_status', arguments: { handle: 'mcp-visitor' } })
    ).structuredContent;
    const viaHttp = (await t.app.inject({ method: 'GET', url: '/api/agent/mcp-visitor' })).json();
    expect(viaMcp).toEqual(viaHttp);
    const unknown = await client.callTool({
      name: 'civitas_agent_status',
      arguments: { handle: 'nobody-here' },
    });
    expect(toolBody(unknown)).toMatchObject({ ok: false, found: false, reason: 'unknown_agent' });
    await client.close();
  });

  it('refuses bad tool arguments without a stack trace', async () => {
    const client = await connect();
    const bad = await client.callTool({ name: 'civitas_agent_status', arguments: { handle: '!' } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad)).not.toMatch(/at .*\.ts:\d+/);
    await client.close();
  });
});
