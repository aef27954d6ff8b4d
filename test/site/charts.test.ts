import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signedInSovereign } from '../helpers/identity.ts';
import { takeCensus } from '../../api/people/census.ts';
import { requests } from '../helpers/http.ts';

/** Charts on the window, metabolism and census pages (site built by `npm run build`): each an SVG
 *  with role="img", a <title> and <desc>, and its numbers in a table under a disclosure. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
  t.clock.set('2026-05-01T10:00:00.000Z');
  await signedInSovereign(t.app);
  for (const body of ['first chart imprint', 'second chart imprint']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'chart-bot', body },
    });
    expect(res.statusCode).toBeLessThan(300);
  }
  t.clock.set('2026-05-02T00:00:30.000Z');
  expect((await takeCensus(t.app.civitas, '2026-05-01')).taken).toBe(true);
}, 120_000);
afterAll(async () => t?.close());

async function page(url: string): Promise<string> {
  const res = await requests(() => t.app).page(url);
  expect(res.statusCode, url).toBe(200);
  return res.body;
}

/** The chart's SVG, checked for its text alternative; returns its figure (SVG, caption, table). */
function chart(body: string, id: string, title: string): string {
  const figure =
    body.match(new RegExp(`<figure[^>]*aria-labelledby="${id}-caption"[^>]*>[\\s\\S]*?</figure>`))?.[0] ?? '';
  expect(figure, id).toMatch(new RegExp(`<svg[^>]*role="img"[^>]*aria-labelledby="${id}-title ${id}-desc"`));
  expect(figure, id).toContain(`<title id="${id}-title">${title}</title>`);
  expect(figure, id).toMatch(new RegExp(`<desc id="${id}-desc">[^<]+</desc>`));
  expect(figure, id).toMatch(/<details>\s*<summary>The numbers behind this chart<\/summary>\s*<table>/);
  return figure;
}

describe('charts', () => {
  it('/window draws bodies kept against imprints ever', async () => {
    const figure = chart(await page('/window'), 'window-chart', 'Bodies kept against imprints ever');
    expect(figure).toContain('2 of 2 imprints still keep their words (window 500); 0 bodies have left.');
    expect(figure).toMatch(/<th scope="row">Imprints ever<\/th><td>2<\/td>/);
    expect(figure).toMatch(/<th scope="row">Window size<\/th><td>500<\/td>/);
  });

  it('/metabolism draws imprints in and bodies evicted per day', async () => {
    const figure = chart(
      await page('/metabolism'),
      'metabolism-days',
      'Imprints in and bodies evicted, the last 30 days (UTC)',
    );
    expect(figure).toContain('2 imprints came in and 0 bodies left the window');
    expect(figure).toMatch(/<th scope="col">Imprints in<\/th><th scope="col">Bodies evicted<\/th>/);
    expect(figure).toMatch(/<th scope="row">05-01<\/th><td>2<\/td><td>0<\/td>/);
  });

  it('/metabolism draws the last 24 hours in the site chart, not the shareable card', async () => {
    const html = await page('/metabolism');
    const figure = chart(html, 'metabolism-hours', 'Imprints in and bodies evicted, the last 24 hours (UTC)');
    expect(figure).toContain('Last 24 hours: 2 imprints in, 0 bodies evicted.');
    // the card (fixed 600-unit text, ~5 px on a phone) is linked for sharing, never drawn as the chart
    expect(html).not.toMatch(/<img[^>]*metabolism\/card\.svg/);
  });

  it('/censuses draws humans and agents by day', async () => {
    const figure = chart(
      await page('/censuses'),
      'census-kinds',
      'Census by kind: humans and agents each day',
    );
    expect(figure).toContain('On 2026-05-01 the census counted 1 human and 1 agent; 1 day shown.');
    expect(figure).toMatch(/<th scope="row">05-01<\/th><td>1<\/td><td>1<\/td>/);
  });
});

describe('vitals chart', () => {
  it('/vitals draws latency percentiles for the last hour beside the last day', async () => {
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/stats' })).statusCode).toBe(200);
    const figure = chart(
      await page('/vitals'),
      'vitals-latency',
      'Latency percentiles, last hour and last day',
    );
    // the picture's words and the table behind it carry the same measured figures
    const [, hour, day] =
      figure.match(/p95: ≤ ([\d.]+) ms in the last hour, ≤ ([\d.]+) ms in the last day/) ?? [];
    expect(Number(hour)).toBeGreaterThan(0);
    expect(figure).toContain(`<th scope="row">p95</th><td>${hour}</td><td>${day}</td>`);
    expect(figure).toMatch(/<th scope="col">Last hour \(ms\)<\/th><th scope="col">Last day \(ms\)<\/th>/);
    expect(figure).toMatch(/<th scope="row">p50<\/th><td>[\d.]+<\/td><td>[\d.]+<\/td>/);
  });
});
