import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signedInSovereign } from '../helpers/identity.ts';
import { firstOf } from '../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('denial receipts', () => {
  it('records a signed-in refusal as a denial receipt, published without the actor id', async () => {
    const person = await signedInSovereign(t.app);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/sovereign/triage',
      headers: { cookie: person.cookie, origin: 'http://civitas.test' },
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().reason).toBe('scope_required');
    const receiptId = refused.headers['x-civitas-denial-receipt'];
    expect(receiptId).toMatch(/^rcpt_/);

    const receipt = (await t.app.inject({ method: 'GET', url: `/api/receipt/${receiptId}` })).json();
    expect(receipt.step).toBe('denial.scope_required');
    const transparency = await t.app.inject({ method: 'GET', url: '/api/transparency' });
    expect(transparency.statusCode).toBe(200);
    const text = transparency.body;
    expect(text).toContain(String(receiptId));
    expect(text).not.toContain(person.id);
    expect(JSON.stringify(receipt)).not.toContain(person.id);
  });

  it('records nothing for a failed continuity proof or an anonymous refusal', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'denied-one', body: 'first' },
    });
    const before = Number(
      firstOf(await t.database.db.query<{ n: string }>('select count(*) as n from denials')).n,
    );
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'denied-one', body: 'again' },
      headers: { 'x-civitas-continuity': 'cs_wrong' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['x-civitas-denial-receipt']).toBeUndefined();
    const anonymous = await t.app.inject({ method: 'GET', url: '/sovereign' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['x-civitas-denial-receipt']).toBeUndefined();
    const after = Number(
      firstOf(await t.database.db.query<{ n: string }>('select count(*) as n from denials')).n,
    );
    expect(after).toBe(before);
  });
});

describe('router refusals in the error shape', () => {
  it('answers an over-long path segment with 414 and bad percent-encoding with 400', async () => {
    const long = await t.app.inject({ method: 'GET', url: `/api/agent/${'a'.repeat(300)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ ok: false, reason: 'uri_too_long' });
    const bad = await t.app.inject({ method: 'GET', url: '/api/agent/%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
  });
});
