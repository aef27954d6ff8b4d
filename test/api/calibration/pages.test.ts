import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { resolveDue } from '../../../api/calibration/job.ts';
import { htmlHeaders as html } from '../../helpers/builders.ts';
import { INLINE_SCRIPT } from '../../helpers/pages.ts';
import { requests } from '../../helpers/http.ts';

/** The orders and calibration pages rendered by the one-origin server (site built by `npm run build`). */
let t: TestApp;
let me: TestSovereign;
beforeAll(async () => {
  t = await createTestApp({ site: true });
  me = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const http = requests(() => t.app);
const form = (url: string, body: Record<string, string>) => http.form(url, body, me, html(me.cookie));

describe('orders and calibration pages', () => {
  it('render empty states with labelled forms that post to the Fastify doors', async () => {
    for (const [url, action] of [
      ['/orders', '/sovereign/order'],
      ['/prophecy', '/sovereign/prophecy'],
      ['/almanac', '/sovereign/pact'],
      ['/calibration', null],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: html(me.cookie) });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<h1');
      if (action) expect(res.body).toContain(`method="post" action="${action}"`);
      expect(res.body).not.toMatch(INLINE_SCRIPT);
    }
  });

  it('offer a signed-out visitor "Sign in to …" instead of a form that would fail', async () => {
    for (const [url, action, words] of [
      ['/prophecy', '/sovereign/prophecy', 'Sign in to make a prophecy'],
      ['/almanac', '/sovereign/pact', 'Sign in to make a pact'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: html() });
      expect(res.body, url).not.toContain(`action="${action}"`);
      expect(res.body, url).toContain(words);
      expect(res.body, url).toContain(`/return?return_to=${encodeURIComponent(url)}`);
    }
  });

  it('show what the forms recorded', async () => {
    const order = await form('/sovereign/order', { title: 'pagemarker order', return_to: '/orders' });
    expect(order.statusCode).toBe(303);
    const orders = await t.app.inject({
      method: 'GET',
      url: order.headers.location as string,
      headers: html(),
    });
    expect(orders.body).toContain('pagemarker order');
    expect(orders.body).toContain('was recorded');
    // A visitor who is not signed in is offered the way in, not a form that would fail.
    expect(orders.body).toContain('Sign in to second this order');
    expect(orders.body).not.toContain('action="/sovereign/second"');
    const mine = await t.app.inject({ method: 'GET', url: '/orders', headers: html(me.cookie) });
    expect(mine.body).toContain('action="/sovereign/second"');

    const prophecy = await form('/sovereign/prophecy', {
      metric: 'humans',
      comparator: 'gte',
      threshold: '1',
      probability: '0.9',
      due_in_days: '1',
      return_to: '/prophecy',
    });
    expect(prophecy.statusCode).toBe(303);
    expect((await t.app.inject({ method: 'GET', url: '/prophecy', headers: html() })).body).toContain(
      'humans ≥ 1',
    );
    const pact = await form('/sovereign/pact', {
      title: 'pagemarker pact',
      stake: '3',
      due_in_days: '2',
      return_to: '/almanac',
    });
    expect(pact.statusCode).toBe(303);
    expect((await t.app.inject({ method: 'GET', url: '/almanac', headers: html() })).body).toContain(
      'pagemarker pact',
    );

    t.clock.advance(86_400_000 + 60_000);
    await resolveDue(t.app.civitas);
    const calibration = await t.app.inject({ method: 'GET', url: '/calibration', headers: html() });
    expect(calibration.body).toContain('1 resolved');
    expect(calibration.body).toContain('fewer than 5');
    // one empty state says what comes next instead of three blank reliability diagrams
    expect(calibration.body).toContain('No reliability diagram yet');
    expect(calibration.body).not.toContain('reliability-overall-title');
    expect(calibration.body).toContain('does not establish accuracy for any outside decision');
  });

  it('draws the reliability diagram as an SVG with its text alternative and its numbers', async () => {
    for (let i = 0; i < 5; i += 1) {
      const res = await form('/sovereign/prophecy', {
        metric: 'humans',
        comparator: 'gte',
        threshold: '1',
        probability: '0.85',
        due_in_days: '1',
        return_to: '/prophecy',
      });
      expect(res.statusCode).toBe(303);
    }
    t.clock.advance(86_400_000 + 60_000);
    await resolveDue(t.app.civitas);
    const body = (await t.app.inject({ method: 'GET', url: '/calibration', headers: html() })).body;
    const svg =
      body.match(
        /<svg[^>]*aria-labelledby="reliability-overall-title reliability-overall-desc"[^>]*>[\s\S]*?<\/svg>/,
      )?.[0] ?? '';
    expect(svg).toContain('role="img"');
    expect(svg).toContain(
      '<title id="reliability-overall-title">Reliability diagram: all forecasters</title>',
    );
    // the 0.8–0.9 bin now holds five prophecies that all came true: a point with its ±1σ bar
    expect(svg).toMatch(
      /<desc id="reliability-overall-desc">[^<]*Predicted 0\.85, came true 1\.00 \(±0\.16\) over 5/,
    );
    expect(svg).toContain('<circle');
    expect(body).toMatch(
      /<details>\s*<summary>The numbers behind this chart<\/summary>[\s\S]*?<th scope="row">0\.8–0\.9<\/th><td>5<\/td><td>0\.85<\/td><td>1\.00<\/td><td>0\.16<\/td>/,
    );
    expect(body).toContain('<title id="brier-by-forecaster-title">Brier score by forecaster</title>');
    expect(body).toMatch(/<th scope="row">Sovereigns<\/th><td>0\.0\d+/);
  });
});
