/**
 * Strict bodies where an ignored field would change what a door does (docs/treasury.md,
 * docs/identity.md): a checkout door refuses a field it does not know rather than opening a
 * checkout for the default amount, and POST /sovereign/email removes the address only when asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { firstOf } from '../../helpers/elements.ts';

let t: TestApp;
let me: TestSovereign;
beforeAll(async () => {
  t = await createTestApp();
  me = await signedInSovereign(t.app);
});
afterAll(() => t?.close());

const http = requests(() => t.app);
const post = (url: string, payload: unknown) => http.post(url, payload, me);

describe('strict bodies', () => {
  it.each(['/api/patronage', '/api/checkout', '/api/covenant', '/api/oracle/buy'])(
    'POST %s refuses unknown fields by name',
    async (url) => {
      const res = await post(url, { amount_cents: 2500, public: true });
      expect(res.statusCode, res.body).toBe(400);
      const paths = res.json().issues.map((issue: { path: string }) => issue.path);
      expect(paths).toEqual(expect.arrayContaining(['amount_cents', 'public']));
    },
  );

  it('POST /sovereign/email {} keeps the address; action=remove removes it', async () => {
    await t.app.civitas.db.query(
      'update sovereigns set email = $2, email_verified_at = now() where id = $1',
      [me.id, 'keep@civitas.test'],
    );
    const email = async () =>
      firstOf(
        await t.app.civitas.db.query<{ email: string | null }>('select email from sovereigns where id = $1', [
          me.id,
        ]),
      ).email;
    const empty = await post('/sovereign/email', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues[0].path).toBe('email');
    expect(await email()).toBe('keep@civitas.test');
    const blank = await post('/sovereign/email', { email: '' });
    expect(blank.statusCode).toBe(400);
    expect((await post('/sovereign/email', { emial: 'typo@civitas.test' })).statusCode).toBe(400);
    expect(await email()).toBe('keep@civitas.test');
    const removed = await post('/sovereign/email', { action: 'remove' });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().status).toBe('removed');
    expect(await email()).toBeNull();
  });
});
