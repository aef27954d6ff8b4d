/**
 * A forged cross-port form in real Chromium (issue 19): a page on another loopback port is the same
 * site, so the browser attaches the victim's SameSite=Lax session cookie to the form it auto-submits
 * to `/sovereign/callsign-visibility`. The same-origin rule refuses it by its Origin: the callsign
 * stays hidden, and the victim's own page still changes it.
 */
import type { FastifyInstance } from 'fastify';
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { SESSION_COOKIE } from '../../api/plugins/session.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';
import { freePort } from '../helpers/ports.ts';

let app: FastifyInstance;
let database: TestDatabase;
let base: string;
let trap: Server;
let trapBase: string;
let browser: Browser;
let victim: TestSovereign;

/** The foreign page: a form that submits itself, as a hostile page would. */
const trapPage = (target: string) => `<!doctype html><html><body>
<form id="f" method="post" action="${target}/sovereign/callsign-visibility">
<input type="hidden" name="visible" value="true"></form>
<script>document.getElementById('f').submit()</script></body></html>`;

beforeAll(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await buildApp({
    db: database.db,
    site: true,
    config: { origin: base, rateReadsPerMin: 100_000, rateWritesPerMin: 100_000, dataDir: '/nonexistent' },
  });
  await app.listen({ port, host: '127.0.0.1' });
  victim = await signedInSovereign(app, { callsign: 'Hidden Wren' });
  await app.civitas.db.query('update sovereigns set callsign_visible = false where id = $1', [victim.id]);
  const trapPort = await freePort();
  trapBase = `http://127.0.0.1:${trapPort}`;
  trap = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(trapPage(base));
  });
  await new Promise<void>((resolve) => trap.listen(trapPort, '127.0.0.1', resolve));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => trap?.close(resolve));
  await app?.close();
  await database?.drop();
});

async function callsignVisible(): Promise<boolean> {
  const [row] = await app.civitas.db.query<{ callsign_visible: boolean }>(
    'select callsign_visible from sovereigns where id = $1',
    [victim.id],
  );
  return row.callsign_visible;
}

describe('a forged form from another port in Chromium', () => {
  it('is refused with 403 cross_origin_refused and the callsign stays hidden', async () => {
    const context = await browser.newContext();
    await context.addCookies([
      {
        name: SESSION_COOKIE,
        value: victim.cookie.split('=')[1],
        url: base,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
    const page = await context.newPage();
    const answered = page.waitForResponse((r) => r.url() === `${base}/sovereign/callsign-visibility`);
    await page.goto(`${trapBase}/`);
    const response = await answered;
    expect(response.status()).toBe(403);
    const sent = await response.request().allHeaders();
    expect(sent.cookie).toContain(SESSION_COOKIE);
    expect(sent.origin).toBe(trapBase);
    expect(await response.text()).toContain('must come from the service&#39;s own pages');
    expect(await callsignVisible()).toBe(false);

    // The victim's own page still acts.
    await page.goto(`${base}/sovereign`);
    const own = await page.evaluate(async () => {
      const r = await fetch('/sovereign/callsign-visibility', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ visible: true }),
      });
      return r.status;
    });
    expect(own).toBe(200);
    expect(await callsignVisible()).toBe(true);
    await context.close();
  });
});
