/** site/lib/api.ts: the in-process inject path, the split-deploy fetch path, and failures. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet } from '../../site/lib/api.ts';

const ctx = (locals: App.Locals, cookie?: string) => ({
  request: new Request('http://site.test/status', { headers: cookie ? { cookie } : {} }),
  locals,
});

let server: Server;
let seen: { url?: string; cookie?: string; accept?: string } = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen = { url: req.url, cookie: req.headers.cookie, accept: req.headers.accept };
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.url === '/missing' ? { ok: false, reason: 'not_found' } : { ok: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.CIVITAS_API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  delete process.env.CIVITAS_API_URL;
  server.close();
});

describe('apiGet', () => {
  it('uses locals.civitas.inject in process, forwarding the cookie', async () => {
    const calls: unknown[] = [];
    const locals = {
      civitas: {
        inject: async (req: unknown) => (calls.push(req), { status: 200, body: { ok: true, via: 'inject' } }),
      },
    };
    const res = await apiGet<{ via: string }>(ctx(locals, 'sid=abc'), '/health');
    expect(res).toEqual({ status: 200, body: { ok: true, via: 'inject' } });
    expect(calls).toEqual([
      { method: 'GET', url: '/health', headers: { accept: 'application/json', cookie: 'sid=abc' } },
    ]);
  });

  it('fetches CIVITAS_API_URL without locals, forwarding the cookie and passing statuses through', async () => {
    expect(await apiGet(ctx({}, 'sid=xyz'), '/health')).toEqual({ status: 200, body: { ok: true } });
    expect(seen).toEqual({ url: '/health', cookie: 'sid=xyz', accept: 'application/json' });
    expect(await apiGet(ctx({}), '/missing')).toEqual({
      status: 404,
      body: { ok: false, reason: 'not_found' },
    });
  });

  it('answers 503 provider_unavailable when the API cannot be reached or inject throws', async () => {
    const throwing = {
      civitas: { inject: async () => Promise.reject(new Error('socket hang up: secret internals')) },
    };
    const res = await apiGet<{ reason: string; hint: string }>(ctx(throwing), '/health');
    expect(res.status).toBe(503);
    expect(res.body.reason).toBe('provider_unavailable');
    expect(JSON.stringify(res.body)).not.toContain('secret internals');
  });

  it('refuses anything but a local path', async () => {
    await expect(apiGet(ctx({}), 'https://evil.example/')).rejects.toThrow(/local path/);
    await expect(apiGet(ctx({}), '//evil.example/')).rejects.toThrow(/local path/);
  });
});
