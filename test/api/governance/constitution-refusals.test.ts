import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { at, missing } from '../../helpers/elements.ts';

let t: TestApp;
let proposer: TestSovereign;
let cosigners: TestSovereign[];
let ratifiers: TestSovereign[];
let plain: TestSovereign;
let configured: TestSovereign;

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
  configured = await signedInSovereign(t.app);
  t.app.civitas.config.governors = [configured.id];
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

describe('refusals', () => {
  it('needs a session and governance:write to propose or cosign (router: 401, 403)', async () => {
    const anon = await post('/api/constitution/propose', { title: 'x', text: 'y' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().reason).toBe('identity_required');
    const noScope = await post('/api/constitution/propose', { title: 'x', text: 'y' }, plain.cookie);
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json()).toMatchObject({ reason: 'scope_required', scope: 'governance:write' });
    const id = await newProposal();
    expect((await post('/api/constitution/cosign', { proposal: id }, plain.cookie)).statusCode).toBe(403);
    expect((await post('/api/constitution/ratify', { proposal: id })).statusCode).toBe(401);
    expect((await post('/api/constitution/ratify', { proposal: id }, plain.cookie)).json()).toMatchObject({
      reason: 'scope_required',
      scope: 'governance:write',
    });
  });

  it('refuses a double cosign (409), also when sent concurrently, and records one receipt', async () => {
    const id = await newProposal();
    const first = await post('/api/constitution/cosign', { proposal: id }, at(cosigners, 0).cookie);
    expect(first.statusCode).toBe(200);
    const twice = await post('/api/constitution/cosign', { proposal: id }, at(cosigners, 0).cookie);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().rule).toBe('already_cosigned');

    const other = await newProposal();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        post('/api/constitution/cosign', { proposal: other }, at(cosigners, 1).cookie),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const [{ n } = missing()] = await t.app.civitas.db.query<{ n: string }>(
      `select count(*) as n from receipts where step = 'governance.cosign' and subject = $1`,
      [`proposal:${other}`],
    );
    expect(Number(n)).toBe(1);
  });

  it('concurrent cosigns by different sovereigns flip the state exactly once', async () => {
    const id = await newProposal();
    const results = await Promise.all(
      cosigners.map((c) => post('/api/constitution/cosign', { proposal: id }, c.cookie)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 409]);
    const view = (await get('/api/constitution')).json().proposals.find((p: { id: string }) => p.id === id);
    expect(view).toMatchObject({ state: 'cosigned', cosigns: { count: 3 } });
  });

  it('refuses ratification without a stored uniqueness receipt (governance by configuration), 403 with the reason', async () => {
    const id = await newProposal();
    await cosigned(id);
    // Configured governors may propose and cosign…
    expect(
      (await post('/api/constitution/cosign', { proposal: await newProposal() }, configured.cookie))
        .statusCode,
    ).toBe(200);
    // …but not ratify.
    const res = await post('/api/constitution/ratify', { proposal: id }, configured.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      ok: false,
      reason: 'scope_required',
      requires: 'uniqueness_receipt',
      missing: 'uniqueness_receipt',
    });
    expect(res.json().hint).toMatch(/human-uniqueness receipt/);
    const view = (await get('/api/constitution', configured.cookie)).json();
    expect(view.viewer).toMatchObject({
      governance_write: true,
      uniqueness_receipt: false,
      may_ratify: false,
    });
  });

  it('answers 404 for unknown proposals and amends targets, 400 for malformed input', async () => {
    const unknown = 'prop_01JZZZZZZZZZZZZZZZZZZZZZZZ';
    for (const url of ['/api/constitution/cosign', '/api/constitution/ratify']) {
      const res = await post(url, { proposal: unknown }, at(ratifiers, 0).cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json().reason).toBe('not_found');
      for (const bad of [{}, { proposal: 'nope' }, { proposal: 42 }, { proposal: `${unknown}X` }]) {
        const r = await post(url, bad, at(ratifiers, 0).cookie);
        expect(r.statusCode).toBe(400);
        expect(r.json()).toMatchObject({ reason: 'invalid_request' });
      }
    }
    for (const amends of ['article-99', 'axiom-99']) {
      const res = await post('/api/constitution/propose', { title: 'A', text: 'B', amends }, proposer.cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json().amends).toBe(amends);
    }
    const cases: Record<string, unknown>[] = [
      {},
      { title: '', text: 'x' },
      { title: '   ', text: 'x' },
      { title: 'x'.repeat(121), text: 'x' },
      { title: 'x', text: 'y'.repeat(4001) },
      { title: 'x', text: 'y', amends: 'constitution' },
      { title: ['x'], text: 'y' },
      { title: 'x', text: 'y', return_to: 'https://evil.example/' },
    ];
    for (const payload of cases) {
      const res = await post('/api/constitution/propose', payload, proposer.cookie);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    // The limits themselves are accepted.
    expect(
      (
        await post(
          '/api/constitution/propose',
          { title: 'x'.repeat(120), text: 'y'.repeat(4000) },
          proposer.cookie,
        )
      ).statusCode,
    ).toBe(200);
    // Huge body: 413.
    expect(
      (await post('/api/constitution/propose', { title: 'x', text: 'y'.repeat(70_000) }, proposer.cookie))
        .statusCode,
    ).toBe(413);
    for (const claim of ['nope', 'article-0', 'rcpt_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'x'.repeat(150)])
      expect((await get(`/provenance/${claim}`)).statusCode).toBe(400);
    for (const claim of ['article-999', unknown, 'axiom-77'])
      expect((await get(`/provenance/${claim}`)).statusCode).toBe(404);
  });

  it('a form post answers 303 to a local page; off-origin return targets and cross-site forms are refused', async () => {
    const form = {
      cookie: proposer.cookie,
      origin: TEST_ORIGIN,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    };
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/constitution/propose',
      headers: form,
      payload: 'title=Form+made&text=Made+through+a+form&return_to=%2Fconstitution',
    });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toMatch(/^\/constitution\?proposed=prop_/);
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/constitution/propose',
      headers: form,
      payload: 'title=A&text=B&return_to=%2F%2Fevil.example',
    });
    expect(off.statusCode).toBe(400);
    expect(off.json().reason).toBe('off_origin_target');
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/constitution/propose',
      headers: { ...form, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: 'title=A&text=B',
    });
    expect(cross.statusCode).toBe(403);
  });

  it('the ceremony lists what awaits ratification, personalized and unstored', async () => {
    const res = await get('/ceremony', configured.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json();
    expect(body.steps.map((s: { step: string }) => s.step)).toEqual([
      'cross',
      'sign_in_with_provider',
      'propose_or_cosign',
      'ratify',
    ]);
    expect(body.pending.length).toBeGreaterThan(0);
    expect(body.pending[0].viewer.can_ratify).toBe(false);
    expect(body.viewer).toMatchObject({ signed_in: true, may_ratify: false });
  });
});
