/**
 * The database taken away for real (PostgreSQL only): this file's own database stops accepting
 * connections and its backends are terminated. Every route answers 503 `unavailable` with
 * Retry-After, JSON to programs and an HTML page to browsers, never 500 and never stored; readiness
 * says not ready; the census reports no regression; all returns with the database. A database
 * recreated empty behind the running process reads not ready.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { serverUrl } from '../../helpers/db.ts';
import { admin } from '../../helpers/postgres.ts';

const server = serverUrl();
let t: TestApp;
let name: string;

async function acceptConnections(allow: boolean) {
  await admin(server!, async (client) => {
    await client.query(`alter database ${name} allow_connections ${allow}`);
    if (!allow)
      await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
  });
}

beforeAll(async () => {
  if (!server) return;
  t = await createTestApp({ site: true });
  name = new URL(t.database.url!).pathname.slice(1);
});
afterAll(async () => {
  if (!server) return;
  await acceptConnections(true).catch(() => {});
  await t?.close();
});

describe.skipIf(!server)('the database away', () => {
  it('answers 503 unavailable with Retry-After, never 500, never stored', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/orders' })).statusCode).toBe(200);
    await acceptConnections(false);
    for (const url of ['/api/orders', '/api/citizens', '/api/stats']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.json(), url).toMatchObject({ ok: false, reason: 'unavailable' });
      expect(Number(res.headers['retry-after']), url).toBeGreaterThan(0);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
    }
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'night-owl', body: 'in the dark' },
    });
    expect(write.statusCode).toBe(503);
    expect(write.json().reason).toBe('unavailable');
  });

  it('shows browsers an HTML page, and readiness says not ready', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/orders',
      headers: { accept: 'text/html', cookie: 'civitas_session=whatever' },
    });
    expect(page.statusCode).toBe(503);
    expect(page.body).toMatch(/<html/i);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers['retry-after']).toBeDefined();
    expect((await t.app.inject({ method: 'GET', url: '/_health' })).statusCode).toBe(503);
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ ok: false, status: 'degraded' });
  });

  it('the census reports no regression that is only the outage', async () => {
    const census = await t.app.inject({ method: 'GET', url: '/api/boundaries' });
    expect(census.statusCode).not.toBe(500);
    if (census.statusCode === 200) {
      const body = census.json();
      expect(body.active).toBe(body.total_boundaries);
      expect(body.all_bound).toBe(true);
    } else {
      expect(census.statusCode).toBe(503);
    }
  });

  it('serves again when the database returns', async () => {
    await acceptConnections(true);
    expect((await t.app.inject({ method: 'GET', url: '/_health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/orders' })).statusCode).toBe(200);
  });

  it('reads not ready when the database is recreated empty behind it', async () => {
    await admin(t.database.url!, (client) =>
      client.query('drop schema public cascade; create schema public'),
    );
    const probe = await t.app.inject({ method: 'GET', url: '/_health' });
    expect(probe.statusCode).toBe(503);
  });
});
