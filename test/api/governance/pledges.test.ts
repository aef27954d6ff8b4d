import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { at, missing } from '../../helpers/elements.ts';

let t: TestApp;
let pledger: TestSovereign;
let backers: TestSovereign[];
let reviewer: TestSovereign;
let plain: TestSovereign;
let configured: TestSovereign;

beforeAll(async () => {
  t = await createTestApp();
  pledger = await signedInSovereign(t.app, { governance: true });
  backers = [
    await signedInSovereign(t.app, { governance: true }),
    await signedInSovereign(t.app, { governance: true }),
  ];
  reviewer = await signedInSovereign(t.app, { governance: true });
  plain = await signedInSovereign(t.app);
  configured = await signedInSovereign(t.app);
  t.app.civitas.config.governors = [configured.id];
});
afterAll(async () => t?.close());

const { get, post } = requests(() => t.app);
const form = (cookie: string) => ({
  cookie,
  origin: TEST_ORIGIN,
  'sec-fetch-site': 'same-origin',
  'content-type': 'application/x-www-form-urlencoded',
});

async function receiptOf(id: string) {
  const [row] = await t.app.civitas.db.query<{ step: string; subject: string }>(
    'select step, subject from receipts where id = $1',
    [id],
  );
  return row;
}

describe('pledges', () => {
  it('starts empty', async () => {
    const res = await get('/api/codex/pledges');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      schema: 'civitas.codex-pledges.v1',
      pledges: [],
      per_article: [],
      counts: { pledges: 0, live: 0 },
    });
  });

  it('pledges to an axiom, once per article while live, with a receipt; backs and reviews it', async () => {
    const made = await post(
      '/sovereign/pledge',
      { article: 'axiom-2', text: '  I will never read a receipt as an outcome.  ' },
      pledger.cookie,
    );
    expect(made.statusCode).toBe(200);
    const body = made.json();
    expect(body).toMatchObject({
      ok: true,
      status: 'active',
      pledge: {
        article: 'axiom-2',
        article_title: 'A receipt proves a step, not an outcome',
        text: 'I will never read a receipt as an outcome.',
        status: 'active',
        live: true,
        by: { ref: `sovereign:${pledger.tag}` },
        backers: { count: 0 },
      },
    });
    expect(body.pledge.id).toMatch(/^plg_[0-9A-Z]{26}$/);
    expect(await receiptOf(body.receipt_id)).toEqual({
      step: 'governance.pledge',
      subject: `pledge:${body.pledge.id}`,
    });
    const id = body.pledge.id as string;

    // One live pledge per article per sovereign.
    const again = await post('/sovereign/pledge', { article: 'axiom-2' }, pledger.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ reason: 'conflict', rule: 'already_pledged', pledge: id });

    // Backing: not by the pledger, once per backer.
    expect((await post('/sovereign/pledge/back', { pledge: id }, pledger.cookie)).json()).toMatchObject({
      rule: 'pledger_cannot_back',
    });
    const back = await post('/sovereign/pledge/back', { pledge: id.toLowerCase() }, at(backers, 0).cookie);
    expect(back.statusCode).toBe(200);
    expect(back.json().pledge.backers).toMatchObject({
      count: 1,
      by: [{ by: { ref: `sovereign:${at(backers, 0).tag}` } }],
    });
    expect(await receiptOf(back.json().receipt_id)).toEqual({
      step: 'governance.pledge.back',
      subject: `pledge:${id}`,
    });
    const twice = await post('/sovereign/pledge/back', { pledge: id }, at(backers, 0).cookie);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().rule).toBe('already_backed');

    // Review needs the uniqueness receipt, not just the scope; never by the pledger.
    expect((await post('/api/codex/pledges/review', { pledge: id, outcome: 'upheld' })).statusCode).toBe(401);
    expect(
      (await post('/api/codex/pledges/review', { pledge: id, outcome: 'upheld' }, plain.cookie)).statusCode,
    ).toBe(403);
    const cfg = await post('/api/codex/pledges/review', { pledge: id, outcome: 'upheld' }, configured.cookie);
    expect(cfg.statusCode).toBe(403);
    expect(cfg.json()).toMatchObject({ reason: 'scope_required', missing: 'uniqueness_receipt' });
    expect(
      (await post('/api/codex/pledges/review', { pledge: id, outcome: 'upheld' }, pledger.cookie)).json(),
    ).toMatchObject({ rule: 'pledger_cannot_review' });
    const upheld = await post(
      '/api/codex/pledges/review',
      { pledge: id, outcome: 'upheld' },
      reviewer.cookie,
    );
    expect(upheld.statusCode).toBe(200);
    expect(upheld.json()).toMatchObject({
      status: 'upheld',
      pledge: {
        status: 'upheld',
        live: true,
        reviews: [{ outcome: 'upheld', by: { ref: `sovereign:${reviewer.tag}` } }],
      },
    });
    expect(await receiptOf(upheld.json().receipt_id)).toEqual({
      step: 'governance.pledge.review.upheld',
      subject: `pledge:${id}`,
    });
    expect(
      (await post('/api/codex/pledges/review', { pledge: id, outcome: 'upheld' }, reviewer.cookie)).json()
        .rule,
    ).toBe('already_upheld');

    // The receipt carries the pledge's state beside it, never implied.
    const receipt = (await get(`/api/receipt/${upheld.json().receipt_id}`)).json();
    expect(receipt.change_status).toMatchObject({ subject: `pledge:${id}`, status: 'upheld' });

    const lapsed = await post(
      '/api/codex/pledges/review',
      { pledge: id, outcome: 'lapsed' },
      reviewer.cookie,
    );
    expect(lapsed.json()).toMatchObject({ status: 'lapsed', pledge: { live: false } });
    expect(
      (
        await post('/api/codex/pledges/review', { pledge: id, outcome: 'lapsed' }, at(backers, 1).cookie)
      ).json().rule,
    ).toBe('pledge_lapsed');
    expect((await post('/sovereign/pledge/back', { pledge: id }, at(backers, 1).cookie)).json().rule).toBe(
      'pledge_lapsed',
    );

    // Lapsed frees the article for a new pledge.
    const renewed = await post('/sovereign/pledge', { article: 'axiom-2' }, pledger.cookie);
    expect(renewed.statusCode).toBe(200);

    const codex = (await get('/api/codex/pledges')).json();
    expect(codex.counts).toEqual({ pledges: 2, live: 1, upheld: 0, lapsed: 1, backs: 1 });
    expect(codex.per_article).toEqual([
      {
        article: 'axiom-2',
        title: 'A receipt proves a step, not an outcome',
        pledges: 2,
        live: 1,
        upheld: 0,
        lapsed: 1,
        backers: 1,
      },
    ]);
    expect(JSON.stringify(codex)).not.toContain(pledger.id);
    expect(JSON.stringify(codex)).not.toContain(reviewer.id);
    const filtered = (await get('/api/codex/pledges?article=axiom-3')).json();
    expect(filtered.pledges).toEqual([]);
  });

  it('the /pledge form answers 303 to a local page', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/pledge',
      headers: form(at(backers, 1).cookie),
      payload: 'article=axiom-5&text=Counted+apart',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/receipt\/rcpt_[0-9A-Z]{26}\?pledged=plg_/);
    const back = await t.app.inject({
      method: 'POST',
      url: '/pledge',
      headers: form(at(backers, 0).cookie),
      payload: 'article=axiom-5&return_to=/axioms',
    });
    expect(back.headers.location).toMatch(/^\/axioms\?pledged=plg_/);
    const off = await t.app.inject({
      method: 'POST',
      url: '/pledge',
      headers: form(reviewer.cookie),
      payload: 'article=axiom-6&return_to=https://evil.example/',
    });
    expect(off.statusCode).toBe(400);
    expect(off.json?.().reason ?? JSON.parse(off.body).reason).toBe('off_origin_target');
    // Nothing was recorded for the refused return target.
    const [{ n } = missing()] = await t.app.civitas.db.query<{ n: string }>(
      `select count(*) as n from governance_pledges where article = 'axiom-6'`,
    );
    expect(Number(n)).toBe(0);
    const cross = await t.app.inject({
      method: 'POST',
      url: '/pledge',
      headers: { ...form(reviewer.cookie), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: 'article=axiom-6',
    });
    expect(cross.statusCode).toBe(403);
  });

  it('refuses bad input, unknown ids and missing scope', async () => {
    expect((await post('/sovereign/pledge', { article: 'axiom-1' })).statusCode).toBe(401);
    const noScope = await post('/sovereign/pledge', { article: 'axiom-1' }, plain.cookie);
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json()).toMatchObject({ reason: 'scope_required', scope: 'governance:write' });
    expect(
      (await post('/sovereign/pledge/back', { pledge: 'plg_01JD0000000000000000000000' }, plain.cookie))
        .statusCode,
    ).toBe(403);
    const empty = await post('/sovereign/pledge', {}, pledger.cookie);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues[0].path).toBe('article');
    expect((await post('/sovereign/pledge', { article: 'chapter-1' }, pledger.cookie)).statusCode).toBe(400);
    expect((await post('/sovereign/pledge', { article: 'axiom-99' }, pledger.cookie)).statusCode).toBe(404);
    expect((await post('/sovereign/pledge', { article: 'article-7' }, pledger.cookie)).statusCode).toBe(404);
    expect(
      (await post('/sovereign/pledge', { article: 'axiom-1', text: 'x'.repeat(501) }, pledger.cookie))
        .statusCode,
    ).toBe(400);
    expect(
      (await post('/sovereign/pledge', { article: 'a'.repeat(100_000) }, pledger.cookie)).statusCode,
    ).toBeLessThan(500);
    expect((await post('/sovereign/pledge/back', { pledge: 'nope' }, at(backers, 0).cookie)).statusCode).toBe(
      400,
    );
    expect(
      (
        await post(
          '/sovereign/pledge/back',
          { pledge: 'plg_01JD0000000000000000000000' },
          at(backers, 0).cookie,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await post(
          '/api/codex/pledges/review',
          { pledge: 'plg_01JD0000000000000000000000', outcome: 'kept' },
          reviewer.cookie,
        )
      ).statusCode,
    ).toBe(400);
    expect((await get('/api/codex/pledges?limit=0')).statusCode).toBe(400);
    expect((await get('/api/codex/pledges?article=nonsense')).statusCode).toBe(400);
  });

  it('concurrent pledges to one article by one sovereign record one', async () => {
    const who = await signedInSovereign(t.app, { governance: true });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post('/sovereign/pledge', { article: 'axiom-8' }, who.cookie)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    const [{ n } = missing()] = await t.app.civitas.db.query<{ n: string }>(
      `select count(*) as n from governance_pledges where article = 'axiom-8' and sovereign_id = $1`,
      [who.id],
    );
    expect(Number(n)).toBe(1);
  });
});
