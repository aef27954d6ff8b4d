/**
 * Every state-changing door a session cookie could authorise comes from the service's own origin
 * (api/plugins/same-origin.ts). A victim's cookie is sent to every unsafe shape of the route
 * registry from each hostile origin a browser could be made to send; each answers 403
 * cross_origin_refused and the database holds exactly what it held before. The same doors from the
 * service's own origin still act, and programs that authenticate by header (no cookie) still work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, registrableMethods, type HttpMethod } from '../../../shared/registry/index.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { agentImprint } from '../../helpers/builders.ts';
import { databaseFingerprint } from '../../helpers/fingerprint.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';

const UNSAFE: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'] as HttpMethod[]);

/** What a foreign page can make a browser send beside the victim's cookie. */
const HOSTILE: Record<string, Record<string, string>> = {
  'Origin: null': { origin: 'null' },
  'another port': { origin: 'http://civitas.test:8080', 'sec-fetch-site': 'same-site' },
  'a sibling subdomain': { origin: 'http://evil.civitas.test', 'sec-fetch-site': 'same-site' },
  'the prefix trick': { origin: `${TEST_ORIGIN}.evil.example`, 'sec-fetch-site': 'cross-site' },
  'another scheme': { origin: 'https://civitas.test' },
  'no Origin, cross-site': { 'sec-fetch-site': 'cross-site' },
  'no Origin, same-site': { 'sec-fetch-site': 'same-site' },
  'no Origin, no Sec-Fetch-Site': {},
};

/** Every unsafe method of every shape, path parameters filled with something that looks real. */
const DOORS = ROUTES.flatMap((shape) =>
  registrableMethods(shape)
    .filter((method) => UNSAFE.has(method))
    .map((method) => ({ method, url: shape.path.replace(/\{[a-z]+\}/g, '1') })),
);

/** Representative doors with bodies that act when they come from the service's own pages. */
const ACTING = [
  { url: '/sovereign/callsign-visibility', payload: { visible: true } },
  { url: '/api/quick-imprint', payload: { body: 'a thought from my own page' } },
  { url: '/sovereign/imprint', payload: { body: 'another thought from my own page' } },
  { url: '/feedback/report', payload: { topic: 'idea', body: 'a note from my own page' } },
  { url: '/settings/data/request', payload: { kind: 'export' } },
];

/** The refusal's reason; /mcp wraps it in a JSON-RPC error as `data`. */
function reasonOf(body: { reason?: string; error?: { data?: { reason?: string } } }): string | undefined {
  return body.reason ?? body.error?.data?.reason;
}

let t: TestApp;
let victim: TestSovereign;
beforeAll(async () => {
  // browser: false: no header is added to what each test sends.
  t = await createTestApp({ browser: false });
  victim = await signedInSovereign(t.app, { governance: true });
  t.app.civitas.config.stewards.push(victim.tag);
});
afterAll(() => t?.close());

describe('origin on every state-changing door with a cookie', () => {
  it('refuses every unsafe shape with a cookie from every hostile origin, and nothing changes', async () => {
    expect(DOORS.length).toBeGreaterThan(40);
    const before = await databaseFingerprint(t.app);
    const accepted: string[] = [];
    for (const door of DOORS) {
      for (const [name, headers] of Object.entries(HOSTILE)) {
        const res = await t.app.inject({
          method: door.method,
          url: door.url,
          headers: { ...headers, cookie: victim.cookie, accept: 'application/json' },
          payload: { body: 'forged', visible: true, kind: 'erasure', topic: 'idea', amount_cents: 2500 },
        });
        if (res.statusCode !== 403 || reasonOf(res.json()) !== 'cross_origin_refused')
          accepted.push(`${door.method} ${door.url} (${name}): ${res.statusCode}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(await databaseFingerprint(t.app)).toEqual(before);
  });

  it.each(ACTING)(
    'refuses a forged $url with a valid body and acts on it from its own origin',
    async (door) => {
      const before = await databaseFingerprint(t.app);
      for (const headers of Object.values(HOSTILE)) {
        const forged = await t.app.inject({
          method: 'POST',
          url: door.url,
          headers: { ...headers, cookie: victim.cookie, accept: 'application/json' },
          payload: door.payload,
        });
        expect(forged.statusCode).toBe(403);
      }
      expect(await databaseFingerprint(t.app)).toEqual(before);
      const own = (headers: Record<string, string>) =>
        t.app.inject({
          method: 'POST',
          url: door.url,
          headers: { ...headers, cookie: victim.cookie, accept: 'application/json' },
          payload: door.payload,
        });
      const byOrigin = await own({ origin: TEST_ORIGIN });
      expect(byOrigin.statusCode, byOrigin.body).toBe(200);
      // Without Origin, the browser's own word; a second identical request may meet the first (409).
      const bySite = await own({ 'sec-fetch-site': 'same-origin' });
      expect(bySite.statusCode, bySite.body).not.toBe(403);
      expect(await databaseFingerprint(t.app)).not.toEqual(before);
    },
  );

  it('answers a forged browser form with the HTML refusal, not a flash on the victim', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/sovereign/callsign-visibility',
      headers: {
        origin: 'http://civitas.test:8080',
        'sec-fetch-site': 'same-site',
        referer: 'http://civitas.test:8080/trap',
        cookie: victim.cookie,
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'visible=true',
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toContain('cross_origin_refused');
  });

  it('lets programs that authenticate by header, with no cookie, keep working', async () => {
    const arrival = await agentImprint(t.app, 'origin-sweep-agent', 'first words from a program');
    expect(arrival.continuity_secret).toBeTruthy();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      headers: { accept: 'application/json' },
      payload: {
        agent: 'origin-sweep-agent',
        body: 'second words, proved by the secret',
        continuity: arrival.continuity_secret,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mcp = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.statusCode, mcp.body).toBe(200);
  });
});
