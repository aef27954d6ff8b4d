import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { INLINE_SCRIPT } from '../../helpers/pages.ts';
import { at } from '../../helpers/elements.ts';

let t: TestApp;
let proposer: TestSovereign;
let others: TestSovereign[];
let articleProposal: string;
let openProposal: string;

const html = (cookie?: string) => ({ accept: 'text/html', ...(cookie ? { cookie } : {}) });
const { post } = requests(() => t.app);

beforeAll(async () => {
  t = await createTestApp({ site: true });
  proposer = await signedInSovereign(t.app, { governance: true });
  others = [];
  for (let i = 0; i < 5; i++) others.push(await signedInSovereign(t.app, { governance: true }));
  articleProposal = (
    await post(
      '/api/constitution/propose',
      { title: 'Open minutes', text: 'Every steward decision is logged with a receipt.' },
      proposer.cookie,
    )
  ).json().proposal.id;
  for (const c of others.slice(0, 3))
    await post('/api/constitution/cosign', { proposal: articleProposal }, c.cookie);
  for (const r of others.slice(3, 5))
    await post('/api/constitution/ratify', { proposal: articleProposal }, r.cookie);
  openProposal = (
    await post(
      '/api/constitution/propose',
      { title: 'Quiet hours <script>', text: 'No sealing at night.' },
      proposer.cookie,
    )
  ).json().proposal.id;
});
afterAll(async () => t?.close());

describe('governance pages', () => {
  it('render their projections accessibly', async () => {
    const pages: [string, string[]][] = [
      ['/axioms', ['A handle is only a name', 'axiom-8']],
      ['/constitution', ['Article 1: Open minutes', 'Quiet hours &lt;script&gt;', 'cosigns 0/3']],
      ['/lineage', ['Ratified as an article', 'rcpt_']],
      ['/ceremony', ['Awaiting ratification (0)', 'Sign in with provider']],
      ['/provenance', ['article-1', 'governance_proposals']],
      ['/provenance/article-1', ['Open minutes', 'Steps and receipts']],
      [`/provenance/${openProposal}`, ['Quiet hours']],
      ['/abstentions', ['Abstained', 'Open minutes', '(final)']],
      ['/provenance/axiom-3', ['Private data never reaches a public surface']],
    ];
    for (const [url, texts] of pages) {
      const res = await t.app.inject({ method: 'GET', url, headers: html() });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toMatch(/<main[^>]*id="main"/);
      expect(res.body).toMatch(/<h1/);
      for (const text of texts) expect(res.body, `${url} shows ${text}`).toContain(text);
      // Text is escaped; inside a quoted attribute value `<` is inert.
      expect(res.body.replace(/"[^"]*"/g, '""')).not.toMatch(INLINE_SCRIPT);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/constitution', headers: html() })).headers['cache-control'],
    ).toBe('private, no-store');
  });

  it('shows forms only to those who may use them', async () => {
    const anon = (await t.app.inject({ method: 'GET', url: '/constitution', headers: html() })).body;
    expect(anon).not.toContain('action="/api/constitution/cosign"');
    expect(anon).toContain('Sign in to take part');
    const cosigner = (
      await t.app.inject({ method: 'GET', url: '/constitution', headers: html(at(others, 0).cookie) })
    ).body;
    expect(cosigner).toContain('action="/api/constitution/cosign"');
    expect(cosigner).toContain('<label for="p-title">');
    const own = (await t.app.inject({ method: 'GET', url: '/constitution', headers: html(proposer.cookie) }))
      .body;
    expect(own).not.toContain('action="/api/constitution/cosign"');
  });

  it('answers 400 and 404 pages for malformed and unknown claims', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/provenance/not-a-claim', headers: html() })).statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: '/provenance/article-42', headers: html() })).statusCode,
    ).toBe(404);
  });
});
