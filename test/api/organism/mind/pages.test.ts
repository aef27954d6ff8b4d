import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { INLINE_SCRIPT, renderedPage } from '../../../helpers/pages.ts';
import { htmlHeaders } from '../../../helpers/builders.ts';
import { signedInSovereign } from '../../../helpers/identity.ts';

/** The mind and evolution pages rendered by the one-origin server (site built by `npm run build`). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
}, 120_000);
afterAll(async () => t?.close());

const html = htmlHeaders();

describe('mind and evolution pages', () => {
  it('render the mind, one claim with its form, and the evolutions', async () => {
    const pages: [string, string][] = [
      ['/mind', 'claims hold at their latest check'],
      ['/mind/claim/window_bounded', 'Take this stance'],
      ['/evolutions', 'schema changes applied'],
    ];
    const me = await signedInSovereign(t.app);
    for (const [url, text] of pages) {
      const body = await renderedPage(t.app, url, me.cookie);
      expect(body, url).toContain(text);
      expect(body, url).not.toMatch(INLINE_SCRIPT);
    }
    const claim = '/mind/claim/window_bounded';
    expect(await renderedPage(t.app, claim)).toContain('Sign in to take a stance');
    const form = (await t.app.inject({ method: 'GET', url: claim, headers: htmlHeaders(me.cookie) })).body;
    expect(form).toContain('action="/api/mind/stance"');
    expect(form).toMatch(/<label for="stance-reason">/);
  });

  it('answers 404 for unknown or malformed claims, and explains at /mind/claim/missing', async () => {
    for (const url of ['/mind/claim/no_such_claim', '/mind/claim/%3Cscript%3E']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('/mind/claim/missing');
      expect(res.body, url).not.toContain('<script>');
    }
    const missing = await t.app.inject({ method: 'GET', url: '/mind/claim/missing', headers: html });
    expect(missing.statusCode).toBe(200);
    expect(missing.body).toContain('No such mind claim');
  });
});
