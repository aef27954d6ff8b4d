import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../helpers/app.ts';
import type { TestSovereign } from '../../../helpers/identity.ts';
import { requests } from '../../../helpers/http.ts';
import { fromOwnPages } from '../../../helpers/builders.ts';
import { at, firstOf } from '../../../helpers/elements.ts';
import { NOW, seventyDaysOld } from './seventy-days-old.ts';

/**
 * The organism's mind: its truth claims with their latest check and k-anonymous stance counts, the
 * stance a signed-in sovereign takes on one (JSON or a form post), and the Atom feed of changes.
 * How it describes itself is persona.test.ts.
 */
let t: TestApp;
let people: TestSovereign[];

const { get: json, post, form, raw } = requests(() => t.app);
const stance = (payload: unknown, cookie?: string) => post('/api/mind/stance', payload, cookie);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

beforeAll(async () => {
  ({ t, people } = await seventyDaysOld());
}, 180_000);
afterAll(async () => t?.close());

describe('GET /api/mind', () => {
  it('lists the truth claims with their latest check and k-anonymous stance counts', async () => {
    const res = await json('/api/mind');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.schema).toBe('civitas.mind.v1');
    expect(body.count).toBe(7);
    const window = body.claims.find((c: { id: string }) => c.id === 'window_bounded');
    expect(window.check).toMatchObject({ held: true, evidence: expect.any(String) });
    expect(window.stances).toEqual({
      agree: 'fewer than 5',
      disagree: 'fewer than 5',
      unsure: 'fewer than 5',
      taken: 'fewer than 5',
    });
    expect(window.links.page).toBe('/mind/claim/window_bounded');
  });

  it('answers one claim, 404 for an unknown one, 400 for a malformed one or an unknown parameter', async () => {
    const one = await json('/api/mind?claim=sequence_gap_free');
    expect(one.statusCode).toBe(200);
    expect(one.json().claim.id).toBe('sequence_gap_free');
    expect(one.json().changes[0].kind).toBe('first_check');
    const missing = await json('/api/mind?claim=no_such_claim');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ ok: false, reason: 'not_found' });
    for (const bad of [
      '/api/mind?claim=DROP%20TABLE',
      `/api/mind?claim=${'a'.repeat(200)}`,
      '/api/mind?claim=',
      '/api/mind?other=1',
    ]) {
      const res = await json(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
  });
});

describe('POST /api/mind/stance', () => {
  it('refuses without a session (401), malformed input (400) and unknown claims (404)', async () => {
    expect((await stance({ claim: 'window_bounded', stance: 'agree', reason: 'seen' })).statusCode).toBe(401);
    // Who asks is answered before what was sent: a stranger's malformed body is 401 too, not 400.
    expect((await stance({ claim: 42 })).statusCode).toBe(401);
    const cookie = at(people, 0).cookie;
    for (const bad of [
      {},
      { claim: 'window_bounded', stance: 'maybe', reason: 'x' },
      { claim: 'window_bounded', stance: 'agree', reason: '' },
      { claim: 'window_bounded', stance: 'agree', reason: 'x'.repeat(501) },
      { claim: 42, stance: 'agree', reason: 'x' },
    ]) {
      const res = await stance(bad, cookie);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 60)).toBe(400);
    }
    expect((await stance({ claim: 'no_such_claim', stance: 'agree', reason: 'x' }, cookie)).statusCode).toBe(
      404,
    );
    expect(Number(firstOf(await sql<{ n: string }>('select count(*) as n from mind_stances')).n)).toBe(0);
  });

  it('records a stance with a receipt; a repeat replaces it; counts appear from 5', async () => {
    const first = await stance(
      { claim: 'window_bounded', stance: 'unsure', reason: 'x'.repeat(500) },
      at(people, 0).cookie,
    );
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      ok: true,
      claim: 'window_bounded',
      stance: 'unsure',
      replaced: false,
    });
    const [receipt] = await sql<{ step: string; subject: string }>(
      'select step, subject from receipts where id = $1',
      [first.json().receipt.id],
    );
    expect(receipt).toEqual({ step: 'organism.mind.stance', subject: 'mind:window_bounded' });
    // Repeated and concurrent: still one stance per sovereign per claim.
    const again = await Promise.all(
      [0, 1, 2].map(() =>
        stance({ claim: 'window_bounded', stance: 'agree', reason: 'checked it' }, at(people, 0).cookie),
      ),
    );
    expect(again.every((r) => r.statusCode === 200)).toBe(true);
    expect(again.some((r) => r.json().replaced === true)).toBe(true);
    for (const p of people.slice(1, 5))
      expect(
        (await stance({ claim: 'window_bounded', stance: 'agree', reason: 'yes' }, p.cookie)).statusCode,
      ).toBe(200);
    const claim = (await json('/api/mind?claim=window_bounded')).json().claim;
    expect(claim.stances).toEqual({ agree: 5, disagree: 'fewer than 5', unsure: 'fewer than 5', taken: 5 });
    const text = JSON.stringify(await (await json('/api/mind')).json());
    expect(text).not.toContain('checked it');
    expect(text).not.toContain(at(people, 0).id);
  });

  it('answers a form post with 303 to the claim page, and refuses off-origin return targets', async () => {
    const from = fromOwnPages(at(people, 5));
    const ok = await form(
      '/api/mind/stance',
      'claim=sealed_days_complete&stance=disagree&reason=doubt',
      from,
    );
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/mind/claim/sealed_days_complete?stance=taken');
    const off = await form(
      '/api/mind/stance',
      'claim=sealed_days_complete&stance=agree&reason=x&return_to=https%3A%2F%2Fevil.example%2F',
      from,
    );
    expect(off.statusCode).toBe(400);
    expect(off.json().reason).toBe('off_origin_target');
  });
});

describe('GET /mind/feed.xml', () => {
  it('lists first checks and changes of claims as Atom', async () => {
    await sql(
      `insert into truth_checks (claim, held, evidence, checked_at) values ('censuses_never_shrink', false, 'one census shrank', $1)`,
      [new Date(NOW + 60_000).toISOString()],
    );
    const res = await raw('/mind/feed.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/atom+xml');
    expect(res.body).toContain('<feed');
    expect(res.body).toContain('<?xml-stylesheet type="text/xsl" href="/feed.xsl"?>');
    expect(res.body).toContain('censuses_never_shrink no longer holds');
    expect(res.body).toContain('window_bounded first checked: holds');
  });
});
