import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  processStore,
  startApiProcess,
  startProcess,
  type ProcessStore,
  type RunningProcess,
} from '../helpers/processes.ts';

/**
 * The split deploy: the API in one process, the site server in another on another port; the
 * site renders live pages from the API over HTTP.
 */
let api: RunningProcess;
let site: RunningProcess;
let store: ProcessStore | undefined;

beforeAll(async () => {
  store = await processStore();
  api = await startApiProcess(store.env);
  site = await startProcess(fileURLToPath(new URL('../helpers/site-server.ts', import.meta.url)), {
    CIVITAS_API_URL: api.url,
  });
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await api?.stop();
  await store?.remove();
});

describe('split deploy', () => {
  it('runs the site and the API as two processes on two ports', () => {
    expect(new URL(site.url).port).not.toBe(new URL(api.url).port);
  });

  it('renders a live page on the site server from the API process', async () => {
    const imprint = await fetch(`${api.url}/api/agent/imprint`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'split-visitor', body: 'written to the API process' }),
    });
    expect(imprint.status).toBe(200);

    const res = await fetch(`${site.url}/status`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('All systems operating');
    expect(html).toMatch(/postgresql|embedded/);
  });

  it('serves prerendered pages and hashed assets from the site process itself', async () => {
    const page = await fetch(`${site.url}/lexicon`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const stylesheet = /href="(\/theme\.[\w-]+\.css)"/.exec(html)?.[1];
    expect(stylesheet).toBeDefined();
    const css = await fetch(`${site.url}${stylesheet}`);
    expect(css.status).toBe(200);
    expect(css.headers.get('cache-control')).toContain('immutable');
  });

  it('relays API paths to the API process', async () => {
    const res = await fetch(`${site.url}/api/agent/split-visitor`);
    expect(res.status).toBe(200);
    expect((await res.json()).identity.handle).toBe('split-visitor');
  });

  it('refuses a body over its limit with 413 in the error shape, and closes the connection', async () => {
    const { hostname, port } = new URL(site.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      'POST /api/quick-imprint HTTP/1.1\r\nHost: civitas.test\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${200 * 1024}\r\n\r\n${'x'.repeat(70 * 1024)}`,
    );
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 413/);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ ok: false, reason: 'payload_too_large' });
    expect(typeof body.hint).toBe('string');
  });
});
