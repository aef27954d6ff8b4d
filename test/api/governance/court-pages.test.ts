import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { heldAgentImprint, triage } from '../../helpers/builders.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { requests } from '../../helpers/http.ts';
import { INLINE_SCRIPT } from '../../helpers/pages.ts';
import { at } from '../../helpers/elements.ts';

let t: TestApp;
let steward: TestSovereign;
let opener: TestSovereign;
let jurors: TestSovereign[];
let openCaseId: string;
let finalCaseId: string;

const html = (cookie?: string) => ({ accept: 'text/html', ...(cookie ? { cookie } : {}) });
const { post } = requests(() => t.app);

async function triaged(n: number): Promise<number> {
  const { sequence } = await heldAgentImprint(t.app, `pages-court-${n}`, `pagesmark${n}`);
  await triage(t.app, steward, sequence, 'keep_held', 'secret steward note');
  return sequence;
}

beforeAll(async () => {
  ({ t, steward } = await appWithSteward({ site: true }));
  opener = await signedInSovereign(t.app, { governance: true });
  jurors = [];
  for (let i = 0; i < 4; i++) jurors.push(await signedInSovereign(t.app, { governance: true }));
  finalCaseId = (
    await post(
      '/sovereign/court-sign',
      { case: 'new', target: `imprint:${await triaged(1)}`, reason: 'Disputed <script>' },
      opener.cookie,
    )
  ).json().case.id;
  await post(
    '/sovereign/court-sign',
    { case_id: finalCaseId, verdict: 'uphold', reason: 'Minority view <b>' },
    at(jurors, 3).cookie,
  );
  for (const j of jurors.slice(0, 3))
    await post(
      '/sovereign/court-sign',
      { case_id: finalCaseId, verdict: 'overturn', reason: 'Majority view' },
      j.cookie,
    );
  openCaseId = (
    await post('/sovereign/court-sign', { case: 'new', target: `imprint:${await triaged(2)}` }, opener.cookie)
  ).json().case.id;
});
afterAll(async () => t?.close());

describe('court pages', () => {
  it('/verdicts and /dissent render their projections accessibly, with no steward note', async () => {
    const pages: [string, string[]][] = [
      ['/verdicts', ['Court verdicts', 'Overturned', 'precedent-1', openCaseId, 'Disputed &lt;script&gt;']],
      ['/dissent', ['Dissent', finalCaseId, 'Minority view &lt;b&gt;', `sovereign ${at(jurors, 3).tag}`]],
    ];
    for (const [url, texts] of pages) {
      const res = await t.app.inject({ method: 'GET', url, headers: html() });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toMatch(/<main[^>]*id="main"/);
      expect(res.body).toMatch(/<h1/);
      for (const text of texts) expect(res.body, `${url} shows ${text}`).toContain(text);
      expect(res.body).not.toContain('secret steward note');
      expect(res.body.replace(/"[^"]*"/g, '""')).not.toMatch(INLINE_SCRIPT);
    }
  });

  it('/verdicts offers a juror the signing form, and nobody else', async () => {
    const juror = await signedInSovereign(t.app, { governance: true });
    const page = (await t.app.inject({ method: 'GET', url: '/verdicts', headers: html(juror.cookie) })).body;
    expect(page).toContain(`name="case_id" value="${openCaseId}"`);
    expect(page).toMatch(/<label for="sign-case_[0-9A-Z]{26}-reason">/);
    expect(page).toContain('Open a case');
    const asOpener = (await t.app.inject({ method: 'GET', url: '/verdicts', headers: html(opener.cookie) }))
      .body;
    expect(asOpener).not.toContain(`name="case_id" value="${openCaseId}"`);
    const anonymous = (await t.app.inject({ method: 'GET', url: '/verdicts', headers: html() })).body;
    expect(anonymous).not.toContain('name="case_id"');
    expect(anonymous).toContain('Sign in to take part.');
  });
});
