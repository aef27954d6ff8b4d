/**
 * CIVITAS_TRUST_PROXY (api/config.ts): off by default, a hop count, or the proxies' addresses.
 * Trusted, the client's address (its rate budget) and the Host the client asked for come from the
 * proxy's X-Forwarded-* headers; untrusted, a client naming itself in X-Forwarded-For still spends
 * its own connection's budget, and X-Forwarded-Host names nothing. The two-process proof (the split
 * deploy) is test/e2e/split-deploy-budgets.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../api/config.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

const READS = 5;
const ORIGIN = 'https://civitas.example';
const apps: Record<string, TestApp> = {};

beforeAll(async () => {
  // inject's peer is 127.0.0.1: trusted by the hop count and by the list naming it, not by the other list.
  for (const [name, value] of Object.entries({
    off: '',
    hops: '1',
    listed: '127.0.0.1',
    other: '10.9.9.9',
  })) {
    apps[name] = await createTestApp({
      browser: false,
      config: {
        origin: ORIGIN,
        rateReadsPerMin: READS,
        trustProxy: loadConfig({ CIVITAS_TRUST_PROXY: value }).trustProxy,
      },
    });
  }
});
afterAll(async () => {
  for (const app of Object.values(apps)) await app.close();
});

const remaining = async (app: TestApp, client: string) => {
  const res = await app.app.inject({
    method: 'GET',
    url: '/api/version',
    headers: { 'x-forwarded-for': client },
  });
  expect(res.statusCode).toBe(200);
  return Number(res.headers['x-ratelimit-remaining']);
};

describe('client address', () => {
  it('is the connection when no proxy is trusted (the default): X-Forwarded-For picks no budget', async () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(await remaining(apps.off!, '203.0.113.1')).toBe(READS - 1);
    expect(await remaining(apps.off!, '203.0.113.2')).toBe(READS - 2);
    expect(await remaining(apps.other!, '203.0.113.1')).toBe(READS - 1);
    expect(await remaining(apps.other!, '203.0.113.2')).toBe(READS - 2);
  });

  it.each(['hops', 'listed'])('comes from X-Forwarded-For through a trusted proxy (%s)', async (name) => {
    const app = apps[name]!;
    expect(await remaining(app, '203.0.113.1')).toBe(READS - 1);
    expect(await remaining(app, '203.0.113.1')).toBe(READS - 2);
    expect(await remaining(app, '203.0.113.2')).toBe(READS - 1);
  });
});

describe('Host behind a proxy that names the upstream by its own name', () => {
  const mcp = (app: TestApp, forwardedHost?: string) =>
    app.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        host: 'api:8080',
        ...(forwardedHost ? { 'x-forwarded-host': forwardedHost } : {}),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });

  it('is the X-Forwarded-Host of a trusted proxy, so /mcp answers', async () => {
    const res = await mcp(apps.hops!, 'civitas.example');
    expect(res.statusCode, res.body).toBe(200);
  });

  it('is refused when it names another host, or when the proxy is not trusted', async () => {
    expect((await mcp(apps.hops!, 'evil.example')).statusCode).toBe(403);
    expect((await mcp(apps.off!, 'civitas.example')).statusCode).toBe(403);
    expect((await mcp(apps.hops!)).statusCode).toBe(403);
  });
});
