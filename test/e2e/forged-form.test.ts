/**
 * A forged cross-port form in real Chromium (issue 19): a page on another loopback port is the same
 * site, so the browser attaches the victim's SameSite=Lax session cookie to the form it auto-submits
 * to `/sovereign/callsign-visibility`. The same-origin rule refuses it by its Origin: the callsign
 * stays hidden, and the victim's own page still changes it.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../api/plugins/session.ts';
import { startE2E, type E2E } from '../helpers/e2e.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';
import { freePort } from '../helpers/ports.ts';
import { missing } from '../helpers/elements.ts';

let e: E2E;
let trap: Server;
let trapBase: string;
let victim: TestSovereign;

/** The foreign page: a form that submits itself, as a hostile page would. */
const trapPage = (target: string) => `<!doctype html><html><body>
<form id="f" method="post" action="${target}/sovereign/callsign-visibility">
<input type="hidden" name="visible" value="true"></form>
<script>document.getElementById('f').submit()</script></body></html>`;

beforeAll(async () => {
  e = await startE2E();
  victim = await signedInSovereign(e.t.app, { callsign: 'Hidden Wren' });
  await e.t.app.civitas.db.query('update sovereigns set callsign_visible = false where id = $1', [victim.id]);
  const trapPort = await freePort();
  trapBase = `http://127.0.0.1:${trapPort}`;
  trap = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(trapPage(e.base));
  });
  await new Promise<void>((resolve) => trap.listen(trapPort, '127.0.0.1', resolve));
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => trap?.close(resolve));
  await e?.close();
});

async function callsignVisible(): Promise<boolean> {
  const [row = missing()] = await e.t.app.civitas.db.query<{ callsign_visible: boolean }>(
    'select callsign_visible from sovereigns where id = $1',
    [victim.id],
  );
  return row.callsign_visible;
}

describe('a forged form from another port in Chromium', () => {
  it('is refused with 403 cross_origin_refused and the callsign stays hidden', async () => {
    const page = await e.open({ as: victim, axe: false });
    const answered = page.waitForResponse((r) => r.url() === `${e.base}/sovereign/callsign-visibility`);
    await page.goto(`${trapBase}/`);
    const response = await answered;
    expect(response.status()).toBe(403);
    const sent = await response.request().allHeaders();
    expect(sent.cookie).toContain(SESSION_COOKIE);
    expect(sent.origin).toBe(trapBase);
    expect(await response.text()).toContain('must come from the service&#39;s own pages');
    expect(await callsignVisible()).toBe(false);

    // The victim's own page still acts.
    await page.goto(`${e.base}/sovereign`);
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
    await page.context().close();
  });
});
