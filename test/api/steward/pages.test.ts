import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward } from './helpers.ts';

/** The steward pages rendered by the one-origin server (site built by `npm run build`). */
let t: TestApp;
let steward: TestSovereign;
beforeAll(async () => {
  ({ t, steward } = await appWithSteward({ site: true }));
});
afterAll(async () => t?.close());

const html = (cookie?: string) => ({
  accept: 'text/html,application/xhtml+xml',
  ...(cookie ? { cookie } : {}),
});

describe('steward pages', () => {
  it('render the queue with bodies and working forms, then the decision and its note in the whisper archive', async () => {
    const held = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'page-spammer', body: 'pagemarker free money now' },
    });
    const sequence = held.json().sequence;
    const page = await t.app.inject({ method: 'GET', url: '/steward/held', headers: html(steward.cookie) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.body).toContain('pagemarker free money now');
    expect(page.body).toContain('<form class="id-form" method="post" action="/sovereign/triage"');
    expect(page.body).toContain(`name="target" value="imprint:${sequence}"`);
    expect(page.body).toMatch(/<label for="held-\d+-note">/);

    const post = await t.app.inject({
      method: 'POST',
      url: '/sovereign/triage',
      headers: {
        ...html(steward.cookie),
        origin: TEST_ORIGIN,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `target=imprint%3A${sequence}&action=keep_held&note=pagenote&return_to=%2Fsteward%2Fheld`,
    });
    expect(post.statusCode).toBe(303);
    const after = await t.app.inject({
      method: 'GET',
      url: post.headers.location as string,
      headers: html(steward.cookie),
    });
    expect(after.body).toContain('Triage recorded: keep held');
    expect(after.body).not.toContain('pagemarker');

    const whispers = await t.app.inject({
      method: 'GET',
      url: '/steward/whispers',
      headers: html(steward.cookie),
    });
    expect(whispers.statusCode).toBe(200);
    expect(whispers.body).toContain('pagenote');
    expect(whispers.body).toContain('steward.triage.keep_held');
  });

  it('render the operator console at /operator and /dashboard', async () => {
    for (const url of ['/operator', '/dashboard']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html(steward.cookie) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.body).toContain('<h1>Operator console</h1>');
      expect(res.body).toContain('action="/steward/lesson"');
      // Canonical URLs are absolute, on the configured origin whatever the request's Host said.
      expect(res.body).toContain(`<link rel="canonical" href="${TEST_ORIGIN}/operator"`);
    }
  });

  it('refuse strangers (403) and send signed-out browsers to /return', async () => {
    const stranger = await signedInSovereign(t.app);
    for (const url of ['/operator', '/dashboard', '/steward/held', '/steward/whispers']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html(stranger.cookie) });
      expect(res.statusCode).toBe(403);
      const anon = await t.app.inject({ method: 'GET', url, headers: html() });
      expect(anon.statusCode).toBe(303);
      expect(anon.headers.location).toBe(`/return?return_to=${encodeURIComponent(url)}`);
    }
  });
});
