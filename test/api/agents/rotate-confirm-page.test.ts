import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { continuousAgent } from '../../helpers/builders.ts';
import { requests } from '../../helpers/http.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * /standing: rotating an attested handle's relay token is confirmed on a page first (one click only
 * asks), and a token minted by a form post is shown once, to the session that minted it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
}, 120_000);
afterAll(async () => t?.close());

const { get, page, post, form } = requests(() => t.app);

describe('rotating a relay token from /standing', () => {
  it('offers "Rotate relay token…", which leads to a confirmation holding the only form that rotates', async () => {
    const me = await signedInSovereign(t.app);
    await continuousAgent(t, 'plover');
    const attest = await post('/standing/rotate-relay', { handle: 'plover' }, me);
    expect(attest.statusCode, attest.body).toBe(200);

    const first = (await page('/standing?handle=plover', me)).body;
    expect(first).toContain('Rotate relay token…');
    expect(first).toContain('href="/standing?handle=plover&amp;confirm=rotate#confirm-rotate"');
    expect(first).not.toContain('action="/standing/rotate-relay"');

    const confirm = (await page('/standing?handle=plover&confirm=rotate', me)).body;
    expect(confirm).toContain('action="/standing/rotate-relay"');
    expect(confirm).toContain('Yes, rotate the token');
    expect(confirm).toContain('href="/standing?handle=plover"');
  });

  it('shows a relay token minted by a form post once, to the same session only', async () => {
    await continuousAgent(t, 'wren');
    const sovereign = await signedInSovereign(t.app);
    const offOrigin = await form(
      '/standing/rotate-relay',
      { handle: 'wren', return_to: 'https://evil.example/' },
      sovereign,
    );
    expect(offOrigin.statusCode).toBe(400);
    expect(offOrigin.json().reason).toBe('off_origin_target');
    expect((await get('/api/agent/wren')).json().naturalization.level).toBe('continuous');

    const minted = await form('/standing/rotate-relay', { handle: 'wren' }, sovereign);
    expect(minted.statusCode).toBe(303);
    const location = String(minted.headers.location);
    expect(location).toMatch(/^\/standing\?handle=wren&minted=fl_/);
    expect(location).not.toContain('rt_');
    const [flash = missing()] = await t.database.db.query<{ ciphertext: string }>(
      'select ciphertext from relay_flashes',
    );
    expect(flash.ciphertext).not.toContain('rt_');

    const other = await signedInSovereign(t.app);
    const wrongSession = (await get(location, other)).json();
    expect(wrongSession.relay_token).toBeNull();
    const shown = await get(location, sovereign);
    expect(shown.json().relay_token).toMatch(/^rt_/);
    expect(shown.headers['cache-control']).toContain('no-store');
    expect(shown.json().agent.naturalization.level).toBe('attested');
    const token = shown.json().relay_token;
    expect((await get(location, sovereign)).json().relay_token).toBeNull();
    const relayed = await post(
      '/api/agent/imprint',
      { agent: 'wren', body: 'Relayed.' },
      { authorization: `Bearer ${token}` },
    );
    expect(relayed.json().unattested).toBe(false);
  });
});
