import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';

/** /sovereign lists what its owner did: proposals, prophecies, pacts and orders, and nobody else's. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
}, 120_000);
afterAll(async () => t?.close());

const http = requests(() => t.app);

async function post(url: string, payload: object, who: TestSovereign) {
  const res = await http.post(url, payload, who);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
}

async function doEverything(who: TestSovereign, mark: string) {
  await post('/api/constitution/propose', { title: `${mark} proposal`, text: 'Publish the minutes.' }, who);
  await post(
    '/sovereign/prophecy',
    { metric: 'agents', comparator: 'gte', threshold: 7, probability: 0.7, due_in_days: 10 },
    who,
  );
  await post('/sovereign/pact', { title: `${mark} pact`, stake: 5, due_in_days: 3 }, who);
  await post('/sovereign/order', { title: `${mark} order` }, who);
}

describe('the owner view', () => {
  it('lists the owner’s proposals, prophecies, pacts and orders, with receipts', async () => {
    const me = await signedInSovereign(t.app, { governance: true });
    const other = await signedInSovereign(t.app, { governance: true });
    await doEverything(me, 'Mine');
    await doEverything(other, 'Theirs');
    const page = await http.page('/sovereign', me);
    expect(page.statusCode).toBe(200);
    const doings = page.body.slice(page.body.indexOf('id="doings"'), page.body.indexOf('>Callsign<'));
    for (const words of ['Mine proposal', 'Mine pact', 'Mine order', 'agents', '70%'])
      expect(doings).toContain(words);
    expect(doings).not.toContain('Theirs');
    expect(doings.match(/\/receipt\/rcpt_/g)?.length).toBe(4);
  });
});
