/**
 * In development the server listens on loopback and prints `http://127.0.0.1:PORT` while the
 * configured origin is `http://localhost:PORT` (issue 21): both names, on the same port, are the
 * service's own origin for every same-origin check. Another port, or the same trick on a public
 * origin, stays foreign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSameOriginRequest } from '../../../shared/security.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';

const ORIGIN = 'http://localhost:4321';

let t: TestApp;
let me: TestSovereign;
beforeAll(async () => {
  t = await createTestApp({ browser: false, config: { origin: ORIGIN } });
  me = await signedInSovereign(t.app);
});
afterAll(() => t?.close());

const http = requests(() => t.app);
const post = (url: string, origin: string, payload: string) =>
  http.form(url, payload, me, { origin, accept: 'application/json' });

describe('loopback names in development', () => {
  it.each(['http://localhost:4321', 'http://127.0.0.1:4321', 'http://[::1]:4321'])(
    'accepts a cookie door and a credential door from %s',
    async (origin) => {
      expect((await post('/sovereign/callsign-visibility', origin, 'visible=true')).statusCode).toBe(200);
      expect((await post('/theme', origin, 'theme=dark&return_to=%2F')).statusCode).toBe(200);
    },
  );

  it.each([
    'http://127.0.0.1:4322',
    'http://localhost:4322',
    'https://127.0.0.1:4321',
    'http://10.0.0.1:4321',
  ])('refuses %s', async (origin) => {
    const res = await post('/sovereign/callsign-visibility', origin, 'visible=false');
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe('cross_origin_refused');
  });

  it('keeps a public origin exact', () => {
    const check = (origin: string, serviceOrigin: string) => isSameOriginRequest({ origin, serviceOrigin });
    expect(check('https://civitas.example', 'https://civitas.example')).toBe(true);
    expect(check('https://127.0.0.1', 'https://civitas.example')).toBe(false);
    expect(check('http://localhost:4321', 'http://127.0.0.1:4321')).toBe(true);
    expect(check('http://localhost:4321.evil.example', 'http://localhost:4321')).toBe(false);
  });
});
