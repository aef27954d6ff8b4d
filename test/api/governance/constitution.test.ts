import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { at } from '../../helpers/elements.ts';

let t: TestApp;
let proposer: TestSovereign;
let cosigners: TestSovereign[];
let ratifiers: TestSovereign[];
let plain: TestSovereign;

beforeAll(async () => {
  t = await createTestApp();
  proposer = await signedInSovereign(t.app, { governance: true });
  cosigners = [];
  for (let i = 0; i < 4; i++) cosigners.push(await signedInSovereign(t.app, { governance: true }));
  ratifiers = [
    await signedInSovereign(t.app, { governance: true }),
    await signedInSovereign(t.app, { governance: true }),
  ];
  plain = await signedInSovereign(t.app);
  // governance:write by configuration only (CIVITAS_GOVERNORS), no uniqueness receipt.
  t.app.civitas.config.governors = [(await signedInSovereign(t.app)).id];
});
afterAll(async () => t?.close());

const { get, post } = requests(() => t.app);

async function newProposal(title = 'Receipts are kept for ten years', extra: Record<string, unknown> = {}) {
  const res = await post(
    '/api/constitution/propose',
    { title, text: 'Every receipt stays verifiable for at least ten years.', ...extra },
    proposer.cookie,
  );
  expect(res.statusCode).toBe(200);
  return res.json().proposal.id as string;
}

async function cosigned(id: string) {
  for (const c of cosigners.slice(0, 3))
    expect((await post('/api/constitution/cosign', { proposal: id }, c.cookie)).statusCode).toBe(200);
}

async function receiptOf(id: string) {
  const [row] = await t.app.civitas.db.query<{ step: string; subject: string }>(
    'select step, subject from receipts where id = $1',
    [id],
  );
  return row;
}

describe('the constitution flow', () => {
  it('proposes, collects 3 cosigns, 2 ratifications, and becomes an article, with a receipt for each step', async () => {
    const empty = await get('/api/constitution');
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['cache-control']).toBe('private, no-store');
    expect(empty.json()).toMatchObject({
      ok: true,
      articles: [],
      proposals: [],
      viewer: { signed_in: false },
    });

    const proposed = await post(
      '/api/constitution/propose',
      {
        title: '  Sessions end after thirty days  ',
        text: 'A session unused for thirty days ends by itself.',
        amends: 'axiom-1',
      },
      proposer.cookie,
    );
    expect(proposed.statusCode).toBe(200);
    const p = proposed.json();
    expect(p).toMatchObject({
      ok: true,
      state: 'proposed',
      proposal: {
        title: 'Sessions end after thirty days',
        amends: 'axiom-1',
        state: 'proposed',
        proposer: {
          kind: 'sovereign',
          ref: `sovereign:${proposer.tag}`,
          display: `sovereign:${proposer.tag}`,
        },
        cosigns: { count: 0, required: 3 },
      },
    });
    expect(p.receipt_id).toMatch(/^rcpt_/);
    expect(await receiptOf(p.receipt_id)).toEqual({
      step: 'governance.propose',
      subject: `proposal:${p.proposal.id}`,
    });
    const id = p.proposal.id as string;

    // Ratification before cosigned: 409.
    const early = await post('/api/constitution/ratify', { proposal: id }, at(ratifiers, 0).cookie);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ reason: 'conflict', rule: 'not_cosigned', state: 'proposed' });

    for (const [i, c] of cosigners.slice(0, 3).entries()) {
      const res = await post('/api/constitution/cosign', { proposal: id }, c.cookie);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.proposal.cosigns.count).toBe(i + 1);
      expect(body.state).toBe(i === 2 ? 'cosigned' : 'proposed');
      expect(await receiptOf(body.receipt_id)).toEqual({
        step: 'governance.cosign',
        subject: `proposal:${id}`,
      });
    }
    // A fourth cosign: cosigning is closed.
    const late = await post('/api/constitution/cosign', { proposal: id }, at(cosigners, 3).cookie);
    expect(late.statusCode).toBe(409);
    expect(late.json().rule).toBe('cosigning_closed');

    const mid = (await get('/api/constitution', at(ratifiers, 0).cookie)).json();
    const open = mid.proposals.find((x: { id: string }) => x.id === id);
    expect(open).toMatchObject({
      state: 'cosigned',
      cosigns: { count: 3 },
      ratifications: { count: 0, required: 2 },
      viewer: { can_ratify: true, can_cosign: false, is_proposer: false },
    });
    expect(open.cosigns.by.map((s: { by: { ref: string } }) => s.by.ref)).toEqual(
      cosigners.slice(0, 3).map((c) => `sovereign:${c.tag}`),
    );
    expect(mid.viewer).toMatchObject({ signed_in: true, uniqueness_receipt: true, may_ratify: true });
    expect(mid.counts).toMatchObject({ awaiting_ratification: 1 });

    const r1 = await post('/api/constitution/ratify', { proposal: id }, at(ratifiers, 0).cookie);
    expect(r1.statusCode).toBe(200);
    expect(r1.json()).toMatchObject({
      state: 'cosigned',
      article: null,
      proposal: { ratifications: { count: 1 } },
    });
    expect(await receiptOf(r1.json().receipt_id)).toEqual({
      step: 'governance.ratify',
      subject: `proposal:${id}`,
    });
    const again = await post('/api/constitution/ratify', { proposal: id }, at(ratifiers, 0).cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().rule).toBe('already_ratified');

    const r2 = await post('/api/constitution/ratify', { proposal: id }, at(ratifiers, 1).cookie);
    expect(r2.statusCode).toBe(200);
    const done = r2.json();
    expect(done).toMatchObject({
      state: 'ratified',
      proposal: { state: 'ratified', article_id: 'article-1' },
      article: { id: 'article-1', provenance: '/provenance/article-1' },
    });
    expect(await receiptOf(done.article.receipt_id)).toEqual({
      step: 'governance.enact',
      subject: 'article:article-1',
    });

    const after = (await get('/api/constitution')).json();
    expect(after.proposals).toEqual([]);
    expect(after.articles).toEqual([
      expect.objectContaining({
        id: 'article-1',
        number: 1,
        title: 'Sessions end after thirty days',
        amends: 'axiom-1',
        proposal_id: id,
        receipt_id: done.article.receipt_id,
      }),
    ]);

    // Lineage: proposed → 3 cosigns → cosigned → 2 ratifications → ratified, each with its receipt.
    const lineage = (await get('/lineage')).json();
    const entry = lineage.proposals.find((x: { id: string }) => x.id === id);
    expect(entry.lineage.map((e: { step: string }) => e.step)).toEqual([
      'proposed',
      'cosign',
      'cosign',
      'cosign',
      'cosigned',
      'ratification',
      'ratification',
      'ratified',
    ]);
    for (const e of entry.lineage) expect(e.receipt_id).toMatch(/^rcpt_/);

    // Provenance by article and by proposal id (any case).
    const byArticle = await get('/provenance/article-1');
    expect(byArticle.statusCode).toBe(200);
    expect(byArticle.json()).toMatchObject({
      kind: 'article',
      article: { id: 'article-1' },
      proposal: { id },
    });
    expect(byArticle.json().receipts).toHaveLength(8);
    const byProposal = await get(`/provenance/${id.toLowerCase()}`);
    expect(byProposal.statusCode).toBe(200);
    expect(byProposal.json()).toMatchObject({ kind: 'proposal', article: { id: 'article-1' } });
    expect((await get('/provenance/axiom-2')).json()).toMatchObject({
      kind: 'axiom',
      lineage: [],
      axiom: { id: 'axiom-2' },
    });
    const index = (await get('/provenance')).json();
    expect(index.claims.map((c: { claim: string }) => c.claim)).toContain('article-1');

    // A later proposal amending the article shows on it once ratified.
    const amend = await newProposal('Sessions end after sixty days', { amends: 'article-1' });
    await cosigned(amend);
    await post('/api/constitution/ratify', { proposal: amend }, at(ratifiers, 0).cookie);
    await post('/api/constitution/ratify', { proposal: amend }, at(ratifiers, 1).cookie);
    const two = (await get('/api/constitution')).json();
    expect(two.articles.map((a: { id: string }) => a.id)).toEqual(['article-1', 'article-2']);
    expect(two.articles[0].amended_by).toEqual(['article-2']);
  });

  it('never shows a raw sovereign id or a callsign', async () => {
    const texts = await Promise.all(
      ['/api/constitution', '/lineage', '/provenance', '/ceremony'].map(
        async (u) => (await get(u, plain.cookie)).body,
      ),
    );
    for (const s of [proposer, ...cosigners, ...ratifiers])
      for (const text of texts) expect(text).not.toContain(s.id);
  });
});

// The rest of the refusals are in constitution-refusals.test.ts; this one leaves the cosigned,
// unratified proposal the abstentions below count as open.
describe('refusals', () => {
  it('refuses the proposer cosigning or ratifying their own proposal', async () => {
    const id = await newProposal();
    const own = await post('/api/constitution/cosign', { proposal: id }, proposer.cookie);
    expect(own.statusCode).toBe(409);
    expect(own.json()).toMatchObject({ ok: false, reason: 'conflict', rule: 'proposer_cannot_cosign' });
    await cosigned(id);
    const ratifyOwn = await post('/api/constitution/ratify', { proposal: id }, proposer.cookie);
    expect(ratifyOwn.statusCode).toBe(409);
    expect(ratifyOwn.json().rule).toBe('proposer_cannot_ratify');
  });
});

describe('MCP civitas_constitution', () => {
  it('returns the same projection as GET /api/constitution (anonymous)', async () => {
    const { MCP_TOOLS } = await import('../../../api/families.ts');
    const tool = MCP_TOOLS.find((x) => x.name === 'civitas_constitution')!;
    expect(tool).toBeTruthy();
    const viaTool = await tool.handler({}, t.app.civitas);
    const viaHttp = (await get('/api/constitution')).json();
    expect(JSON.parse(JSON.stringify(viaTool))).toEqual(viaHttp);
  });
});

describe('abstentions', () => {
  it('counts eligible ratifiers who did not ratify, k-anonymously, and never a small group', async () => {
    const res = await get('/api/abstentions');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json();
    expect(body).toMatchObject({
      ok: true,
      schema: 'civitas.abstentions.v1',
      verdicts: { available: false },
    });
    expect(body.ratifications.length).toBeGreaterThan(0);
    // 7 sovereigns hold a uniqueness receipt here (proposer excluded → 6 could ratify).
    const ratified = body.ratifications.find((r: { final: boolean }) => r.final);
    expect(ratified).toMatchObject({ ratifications: 2, eligible_ratifiers: 6, abstentions: 'fewer than 5' });
    const open = body.ratifications.find(
      (r: { final: boolean; ratifications: number }) => !r.final && r.ratifications === 0,
    );
    expect(open).toMatchObject({ eligible_ratifiers: 6, abstentions: 6 });
    expect(res.body).not.toContain(proposer.id);
  });
});
