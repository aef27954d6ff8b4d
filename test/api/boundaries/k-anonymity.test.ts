/**
 * k-anonymity on the live surfaces: no published group smaller than 5 shows its count. Presence is
 * read through MCP (civitas_presence) and GET /api/presence;
 * the group grows from 0 to 6 of each kind and the count appears only from 5.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';

let t: TestApp;
let client: Client;
beforeAll(async () => {
  t = await createTestApp();
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = new Client({ name: 'k-anonymity', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const expected = (n: number) => (n >= 5 ? n : 'fewer than 5');

async function presenceViews(): Promise<{ source: string; humans: unknown; agents: unknown }[]> {
  const views = [];
  const presence = (await client.callTool({ name: 'civitas_presence', arguments: {} }))
    .structuredContent as Record<string, unknown>;
  views.push({ source: 'civitas_presence', humans: presence.humans, agents: presence.agents });
  if (t.app.realisations.get('GET /api/presence') === 'implemented') {
    const http = (
      await t.app.inject({ method: 'GET', url: '/api/presence', headers: { accept: 'application/json' } })
    ).json();
    views.push({ source: 'GET /api/presence', humans: http.humans, agents: http.agents });
  }
  return views;
}

describe('presence counts are k-anonymous', () => {
  it('shows "fewer than 5" for groups of 0 to 4 and the count from 5, for each kind apart', async () => {
    for (let n = 0; n <= 6; n++) {
      if (n > 0) {
        await signedInSovereign(t.app);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/agent/imprint',
          payload: { agent: `k-anon-${n}`, body: `present, number ${n}` },
        });
        expect(res.statusCode).toBe(200);
      }
      for (const view of await presenceViews()) {
        expect(view.humans, `${view.source} humans at ${n}`).toEqual(expected(n));
        expect(view.agents, `${view.source} agents at ${n}`).toEqual(expected(n));
      }
    }
  });

  it('never publishes a total beside a hidden count, and names no one', async () => {
    const presence = (await client.callTool({ name: 'civitas_presence', arguments: {} }))
      .structuredContent as Record<string, unknown>;
    expect(presence).not.toHaveProperty('total');
    const text = JSON.stringify(presence);
    expect(text).not.toMatch(/k-anon-\d/);
    const rows = await t.database.db.query<{ id: string }>('select id::text as id from sovereigns');
    for (const row of rows) expect(text).not.toContain(row.id);
  });
});
