import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '../../../api/families.ts';
import { startJobs } from '../../../api/jobs/runner.ts';
import { PACT_GRACE_DAYS } from '../../../api/calibration/pacts.ts';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { expectDocumented } from '../../helpers/documented.ts';
import { requests } from '../../helpers/http.ts';
import { firstOf, missing } from '../../helpers/elements.ts';

/**
 * Pacts reach their end (issue 12): once due, the author answers (kept or broken), or a steward
 * on the author's behalf, or the lapse job after the grace period; answering settles the stakes
 * (pari-mutuel in points) with a receipt, and the answered card is served.
 */
let t: TestApp;
let steward: TestSovereign;
let author: TestSovereign;
let backer: TestSovereign;
let doubter: TestSovereign;
const DAY = 86_400_000;
const LAPSE = JOBS.filter((job) => job.name === 'calibration.pacts-lapse');
beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  author = await signedInSovereign(t.app);
  backer = await signedInSovereign(t.app);
  doubter = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { get, post } = requests(() => t.app);

async function pactWithStakes(title: string) {
  const made = (await post('/sovereign/pact', { title, stake: 10, due_in_days: 2 }, author)).json();
  expectDocumented('POST /sovereign/pact', made);
  expect(
    (await post('/sovereign/pact/stake', { pact: made.pact_id, points: 30, side: 'kept' }, backer))
      .statusCode,
  ).toBe(200);
  expect(
    (await post('/sovereign/pact/stake', { pact: made.pact_id, points: 20, side: 'broken' }, doubter))
      .statusCode,
  ).toBe(200);
  return made.pact_id as string;
}

describe('answering a due pact', () => {
  it('the author answers kept once due; stakes settle; the answered card and receipt exist', async () => {
    const id = await pactWithStakes('Ship the dark theme');
    // Not before it is due, and never by someone else.
    expect((await post('/sovereign/pact', { pact: id, outcome: 'kept' }, author)).statusCode).toBe(409);
    t.clock.advance(2 * DAY + 1000);
    expect((await post('/sovereign/pact', { pact: id, outcome: 'kept' }, backer)).statusCode).toBe(409);
    expect((await get(`/almanac/claim/${id}/answered.svg`)).statusCode).toBe(404);

    const answered = await post('/sovereign/pact', { pact: id, outcome: 'kept' }, author);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({
      status: 'kept',
      answered_by: 'author',
      stakes: { on_winning_side: 30, on_losing_side: 20, paid_out: 50 },
    });
    expectDocumented('POST /sovereign/pact', answered.json());
    const receipt = (await get(`/api/receipt/${answered.json().receipt_id}`)).json();
    expect(receipt).toMatchObject({ step: 'calibration.pact.answer', subject: `pact:${id}` });
    const payouts = await t.database.db.query<{ side: string; payout: number }>(
      'select side, payout from pact_stakes where pact_id = $1 order by side',
      [id],
    );
    expect(payouts).toEqual([
      { side: 'broken', payout: 0 },
      { side: 'kept', payout: 50 },
    ]);

    const card = await t.app.inject({ method: 'GET', url: `/almanac/claim/${id}/answered.svg` });
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toContain('image/svg+xml');
    expect((await post('/sovereign/pact', { pact: id, outcome: 'broken' }, author)).statusCode).toBe(409);
    const almanac = (await get('/almanac')).json();
    expect(JSON.stringify(almanac)).toContain(id);
  });

  it('a steward answers for the author (operator door); non-stewards are refused', async () => {
    const id = await pactWithStakes('Write the guide');
    t.clock.advance(2 * DAY + 1000);
    expect((await post('/steward/pacts', { pact: id, outcome: 'broken' }, backer)).statusCode).toBe(403);
    const res = await post('/steward/pacts', { pact: id, outcome: 'broken' }, steward);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'broken', answered_by: 'steward', stakes: { paid_out: 50 } });
    expect((await post('/steward/pacts', { pact: id, outcome: 'outcome?' }, steward)).statusCode).toBe(400);
    expect(
      (await post('/steward/pacts', { pact: 'pact_01KZZZZZZZZZZZZZZZZZZZZZZZ', outcome: 'kept' }, steward))
        .statusCode,
    ).toBe(404);
  });

  it('unanswered after the grace period, the job lapses it as broken', async () => {
    const id = await pactWithStakes('Answer nobody gives');
    t.clock.advance(2 * DAY + 1000);
    const jobs = startJobs(t.app, LAPSE, { initialDelayMs: 3_600_000 });
    await jobs.runOnce();
    await jobs.stop();
    expect((await get('/almanac')).body).toContain(id);
    let [pact = missing()] = await t.database.db.query<{ status: string }>(
      'select status from pacts where id = $1',
      [id],
    );
    expect(pact.status).toBe('open'); // due but within the grace period: still the author's to answer
    t.clock.advance(PACT_GRACE_DAYS * DAY);
    const again = startJobs(t.app, LAPSE, { initialDelayMs: 3_600_000 });
    await again.runOnce();
    await again.stop();
    pact = firstOf(
      await t.database.db.query<{ status: string; resolved_by: string }>(
        'select status, resolved_by from pacts where id = $1',
        [id],
      ),
    );
    expect(pact).toEqual({ status: 'broken', resolved_by: 'lapse' });
    expect((await t.app.inject({ method: 'GET', url: `/almanac/claim/${id}/answered.svg` })).statusCode).toBe(
      200,
    );
  });
});
