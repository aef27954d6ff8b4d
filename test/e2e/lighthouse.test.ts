/**
 * Lighthouse on the pages people meet first — the front page, the imprint form, a receipt of a real
 * imprint and the calibration charts — served by the built site and the API on loopback: at least 95
 * in accessibility, best practices and SEO on every page.
 *
 * Performance: the desktop preset (test/helpers/lighthouse.ts), so the run measures the page, not a
 * simulated slow phone multiplied onto a loaded 2-core test host, and each page is requested once
 * first so the first render's warm-up is not counted. Even so the
 * score is a timing and moves with the host's load (tests here assert no timings), so the test asserts
 * what the page's own bytes decide — one render-blocking request (the stylesheet), no layout shift
 * beyond Lighthouse's "good", a small transfer — and writes the scores it saw to
 * /tmp/civitas-lighthouse.json (docs/site.md has the figures).
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from '../helpers/e2e.ts';
import { audit, launchLighthouseChrome, type Audit } from '../helpers/lighthouse.ts';

let e: E2E;
let chrome: Awaited<ReturnType<typeof launchLighthouseChrome>>;
let receiptId: string;
const seen: Audit[] = [];
const PAGES = ['/', '/imprint', '/receipt/{id}', '/calibration'];

beforeAll(async () => {
  e = await startE2E({ chromium: false });
  const { t, base } = e;
  const imprint = await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: 'e2e-lighthouse', body: 'A receipt worth checking.' },
  });
  receiptId = imprint.json().receipt_id;
  for (const path of PAGES)
    await fetch(`${base}${path.replace('{id}', receiptId)}`, { headers: { accept: 'text/html' } }).then((r) =>
      r.text(),
    );
  chrome = await launchLighthouseChrome();
}, 60_000);

afterAll(async () => {
  // Every score, performance included, for the record (docs/site.md).
  if (seen.length) writeFileSync('/tmp/civitas-lighthouse.json', JSON.stringify(seen, null, 2));
  chrome?.kill();
  await e?.close();
});

describe('Lighthouse', () => {
  it.each(PAGES)(
    '%s: at least 95 in accessibility, best practices and SEO; no render-blocking script, no shift',
    async (path) => {
      const result = await audit(chrome.port, `${e.base}${path.replace('{id}', receiptId)}`);
      seen.push(result);
      const { scores, failing, lab } = result;
      for (const category of ['accessibility', 'best-practices', 'seo'] as const) {
        expect(
          scores[category],
          `${path} ${category}; below 1: ${JSON.stringify(failing)}`,
        ).toBeGreaterThanOrEqual(95);
      }
      // What the page's bytes decide, in place of the timed performance score.
      expect(
        lab.renderBlocking,
        `${path}: render-blocking requests besides the stylesheet`,
      ).toBeLessThanOrEqual(1);
      expect(lab.cls, `${path}: layout shift`).toBeLessThan(0.1);
      expect(lab.totalBytes, `${path}: bytes transferred`).toBeLessThan(200_000);
    },
    120_000,
  );
});
