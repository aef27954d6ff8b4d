import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../api/record/window.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { INLINE_SCRIPT, renderedPage } from '../../helpers/pages.ts';
import { htmlHeaders } from '../../helpers/builders.ts';
import { VIEWER_SCRIPT } from '../../../shared/site-scripts.ts';
import { imprintDraft } from '../../helpers/imprint-draft.ts';

/** The observatory, constellation, cross, experiment, expedition and branchworld pages, with the /experience, /milestones and /studio aliases, rendered by the one-origin server (site built by `npm run build`). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
  await t.database.db.transaction(async (tx) => {
    let prev: number | null = null;
    for (let i = 0; i < 3; i++) {
      const { sequence } = await appendImprint(
        tx,
        imprintDraft({
          body: `starlit meadows thought ${i}`,
          authorKind: i === 1 ? 'sovereign' : 'agent',
          authorRef: i === 1 ? '00000000-0000-0000-0000-000000000001' : 'page-probe',
          publicAuthor: i === 1 ? 'beef' : 'page-probe',
          replyTo: prev,
          at: new Date(t.clock.now().getTime() - 3_600_000 + i * 60_000),
        }),
      );
      prev = sequence;
    }
  });
}, 120_000);
afterAll(async () => t?.close());

const html = htmlHeaders();

describe('instrument and experiment pages', () => {
  it('render their projections as accessible HTML without inline scripts', async () => {
    const pages: [string, string][] = [
      ['/observatory', 'Instruments and their current readings'],
      ['/constellation', 'starlit'],
      ['/dream-constellation', 'No dream has named a theme yet'],
      ['/cross', '2 replies across kinds'],
      ['/experiments', 'no_bursts_seen'],
      ['/expeditions/recovery-paradox', 'Not enough data yet'],
      ['/expeditions', 'The recovery paradox'],
      ['/experience', '3 imprints'],
      ['/milestones', 'Milestones'],
      ['/studio', '/badge.svg'],
      ['/branchworld/missing', 'That branchworld does not exist'],
    ];
    for (const [url, text] of pages) {
      const body = await renderedPage(t.app, url);
      expect(body, url).toContain(text);
      // A prerendered page (/branchworld/missing) carries only the hash-allowed signed-in indicator.
      expect(body.replace(`<script>${VIEWER_SCRIPT}</script>`, ''), url).not.toMatch(INLINE_SCRIPT);
    }
  });
  it('branchworld pages answer 400 and 404 for malformed and unknown ids', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/branchworld/nope', headers: html });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('/branchworld/missing');
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/branchworld/pro_01KZZZZZZZZZZZZZZZZZZZZZZZ',
      headers: html,
    });
    expect(unknown.statusCode).toBe(404);
  });
  it('HEAD starts on the pages that declare it', async () => {
    for (const url of ['/experiments', '/expeditions/recovery-paradox']) {
      expect((await t.app.inject({ method: 'HEAD', url })).statusCode, url).toBe(200);
    }
  });
});
