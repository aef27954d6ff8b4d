import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { INLINE_SCRIPT, renderedPage } from '../../helpers/pages.ts';
import { requests } from '../../helpers/http.ts';

/** The Record's surface pages rendered by the one-origin server (site built by `npm run build`). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

const { page } = requests(() => t.app);

describe('chronicle pages', () => {
  it('render empty states with a heading and no inline script', async () => {
    for (const url of ['/today', '/chronicle', '/ascensions', '/story', '/story/weekly']) {
      expect(await renderedPage(t.app, url), url).not.toMatch(INLINE_SCRIPT);
    }
    expect((await page('/today')).body).toContain('Nothing has been imprinted yet.');
    expect((await page('/ascensions')).body).toContain('No handle has ascended yet.');
  });

  it('show what was recorded', async () => {
    const me = await signedInSovereign(t.app);
    const q = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'pagewalker', body: 'pagemarker question', kind: 'question' },
    });
    const seq = q.json().sequence;
    await t.app.inject({
      method: 'POST',
      url: '/sovereign/imprint',
      payload: { body: 'pagemarker reply', reply_to: seq },
      headers: { cookie: me.cookie },
    });
    const today = await page('/today');
    expect(today.body).toContain('pagemarker question');
    expect(today.body).toContain('1 questions');
    expect((await page('/chronicle')).body).toContain('2026-11-22');
    const weekly = (await page('/story/weekly')).body;
    expect(weekly).toContain(`thread #${seq}`);
    expect(weekly).toContain('pagewalker');
  });

  it('a malformed chronicle query answers 400 as a page', async () => {
    const res = await page('/chronicle?months=999');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('months is a whole number');
  });
});
