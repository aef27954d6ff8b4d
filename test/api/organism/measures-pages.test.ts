import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../api/record/window.ts';
import { dreamJob } from '../../../api/organism/themes/dreaming.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { INLINE_SCRIPT, renderedPage } from '../../helpers/pages.ts';
import { htmlHeaders } from '../../helpers/builders.ts';
import { imprintDraft } from '../../helpers/imprint-draft.ts';

/** The organism's measurement pages (season, journal, truth, trust, vigilance, recovery, discrimination, dreaming) rendered by the one-origin server (site built by `npm run build`). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
  await t.database.db.transaction(async (tx) => {
    for (let i = 0; i < 3; i++) {
      await appendImprint(
        tx,
        imprintDraft({
          kind: 'question',
          body: `moonlit orchards question ${i}`,
          authorRef: 'page-probe',
          at: new Date(t.clock.now().getTime() - 3_600_000 + i * 60_000),
        }),
      );
    }
  });
  // The dream of a UTC day is made once it is over: dream today's imprints from tomorrow's clock.
  const now = t.clock.now().toISOString();
  t.clock.set('2026-11-23T00:30:00.000Z');
  await dreamJob(t.app.civitas);
  t.clock.set(now);
}, 120_000);
afterAll(async () => t?.close());

const html = htmlHeaders();

describe('organism pages: season, journal, truth, trust, vigilance, recovery, discrimination, dreaming', () => {
  it('render their projections as accessible HTML without inline scripts', async () => {
    const pages: [string, string][] = [
      ['/season', 'Season 2026-Q4'],
      ['/journal', '3 imprints came in'],
      ['/truth', 'claims hold right now'],
      ['/trust', 'kept checks held'],
      ['/vigilance', 'No alert is open'],
      ['/recovery', 'No failure in the last 30 days'],
      ['/discrimination', 'fewer than 5'],
      ['/dreaming', 'moonlit'],
    ];
    for (const [url, text] of pages) {
      const body = await renderedPage(t.app, url);
      expect(body, url).toContain(text);
      expect(body, url).not.toMatch(INLINE_SCRIPT);
      expect(body, url).not.toContain('page-probe');
    }
  }, 60_000);

  it('keeps /recovery and /discrimination out of shared caches', async () => {
    for (const url of ['/recovery', '/discrimination', '/recovery/card.svg']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.headers['cache-control'], url).toBe('private, no-store');
    }
  });
});
