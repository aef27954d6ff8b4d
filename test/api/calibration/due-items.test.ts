/**
 * What comes due for one sovereign (/sovereign/due.ics): their own open prophecies and pacts and the
 * open pacts they staked on, read through their own rows (migration 0094), never anyone else's: a
 * pact or prophecy of someone else's, or one already answered, is not in their calendar.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
let ada: TestSovereign;
let ben: TestSovereign;
const { post, raw } = requests(() => t.app);

async function made(path: string, body: Record<string, unknown>, who: TestSovereign) {
  const res = await post(path, body, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp();
  ada = await signedInSovereign(t.app);
  ben = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

describe("a sovereign's due items", () => {
  it('are their own open prophecies and pacts and the open pacts they staked on, nothing else', async () => {
    const pact = (title: string, who: TestSovereign) =>
      made('/sovereign/pact', { title, stake: 5, due_in_days: 3 }, who);
    await pact('Ada writes the guide', ada);
    const staked = await pact('Ben ships the map', ben);
    await pact('Ben alone', ben);
    await made('/sovereign/pact/stake', { pact: staked.pact_id, points: 2, side: 'kept' }, ada);
    await made(
      '/sovereign/prophecy',
      { metric: 'humans', comparator: 'gte', threshold: 3, probability: 0.6, due_in_days: 2 },
      ada,
    );
    await made(
      '/sovereign/prophecy',
      { metric: 'humans', comparator: 'lt', threshold: 9, probability: 0.4, due_in_days: 2 },
      ben,
    );

    const res = await raw('/sovereign/due.ics', { cookie: ada.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const events = new ICAL.Component(ICAL.parse(res.body)).getAllSubcomponents('vevent');
    const summaries = events.map((event) => String(event.getFirstPropertyValue('summary'))).sort();
    expect(summaries).toEqual([
      'A pact you staked on comes due: Ben ships the map',
      'Your pact comes due: Ada writes the guide',
      'Your prophecy comes due: humans ≥ 3',
    ]);
  });
});
