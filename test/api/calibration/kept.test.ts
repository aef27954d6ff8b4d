/**
 * Calibration's scores and the streaks are kept as prophecies and pacts resolve (migration 0079,
 * issue 20), and they stay what replaying every resolved prophecy and pact gives: through
 * resolutions out of order, an outcome corrected in place, a row deleted, and an erasure moving a
 * person's acts to the anonymous member (all written by SQL, as the triggers see any writer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { at } from '../../helpers/elements.ts';
import { calibrationView, streaks, STREAK_MIN } from '../../../api/calibration/views.ts';
import { ISO } from '../../../api/calibration/columns.ts';
import {
  leanedRight,
  summarize,
  type CalibrationSummary,
  type Resolved,
} from '../../../shared/calibration/scores.ts';

let t: TestApp;
let ada: TestSovereign;
let ben: TestSovereign;
beforeAll(async () => {
  t = await createTestApp();
  ada = await signedInSovereign(t.app, { callsign: 'Ada' });
  ben = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);
const { get } = requests(() => t.app);
const BASE = Date.parse('2026-10-01T00:00:00.000Z');
const HOUR = 3_600_000;
/** A fixed pseudo-random sequence, so a failure reproduces. */
let seed = 7;
const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;

/** Every resolved prophecy and pact replayed in order: the streaks as they were computed before. */
async function replayed() {
  const rows = await sql<{ key: string; id: string; probability: number; outcome: boolean; at: string }>(
    `select forecaster_kind || '|' || coalesce(forecaster_id::text, '') as key, id, probability, outcome, ${ISO('resolved_at')} as at
       from prophecies where resolved_at is not null order by resolved_at, due_at, id`,
  );
  const pacts = await sql<{ key: string; id: string; status: string; at: string }>(
    `select coalesce(author_id::text, '') as key, id, status, ${ISO('resolved_at')} as at from pacts where status <> 'open' order by resolved_at, id`,
  );
  const runs = new Map<string, { length: number; since: string; last_id: string }>();
  const step = (key: string, right: boolean, id: string, at: string) => {
    const run = runs.get(key);
    if (!right) runs.delete(key);
    else if (run) Object.assign(run, { length: run.length + 1, last_id: id });
    else runs.set(key, { length: 1, since: at, last_id: id });
  };
  for (const r of rows)
    step(
      `prophecies|${r.key}`,
      leanedRight({ probability: r.probability, outcome: r.outcome === true }),
      r.id,
      r.at,
    );
  for (const p of pacts) step(`pacts|${p.key}`, p.status === 'kept', p.id, p.at);
  return [...runs.entries()]
    .filter(([, run]) => run.length >= STREAK_MIN)
    .map(([key, run]) => `${key.split('|')[0]} ${run.length} ${run.since} ${run.last_id}`)
    .sort();
}

/** The kept streaks in the same form, and the tally the card counts. */
async function kept() {
  const list = await streaks(t.app.civitas);
  const [tally] = await sql<{ value: number }>(
    "select value from record_tallies where name = 'calibration_streaks'",
  );
  expect(Number(tally?.value ?? 0)).toBe(list.length);
  return list.map((s) => `${s.kind} ${s.length} ${s.since} ${s.last_id}`).sort();
}

/** The scores from every resolved prophecy, as calibrationView computed them before. */
async function scored() {
  const rows = await sql<{ forecaster_kind: string; probability: number; outcome: boolean }>(
    'select forecaster_kind, probability, outcome from prophecies where resolved_at is not null',
  );
  const of = (kind?: string): Resolved[] =>
    rows
      .filter((r) => kind === undefined || r.forecaster_kind === kind)
      .map((r) => ({ probability: r.probability, outcome: r.outcome === true }));
  return {
    overall: summarize(of()),
    service: summarize(of('service')),
    sovereigns: summarize(of('sovereign')),
  };
}

/**
 * Equal, but for the sixth decimal of a mean that sits on a rounding half: the kept sums are exact
 * (numeric), a replay's float sum depends on the rows' order, so a half may round either way.
 */
function same(kept: CalibrationSummary, full: CalibrationSummary) {
  const near = (a: number | null, b: number | null) =>
    a === null || b === null ? expect(a).toBe(b) : expect(Math.abs(a - b)).toBeLessThanOrEqual(1.5e-6);
  expect(kept.count).toBe(full.count);
  near(kept.brier_score, full.brier_score);
  near(kept.log_score, full.log_score);
  kept.reliability.forEach((bin, i) => {
    const other = full.reliability[i]!;
    expect([bin.from, bin.to, bin.count]).toEqual([other.from, other.to, other.count]);
    near(bin.mean_probability, other.mean_probability);
    near(bin.observed_frequency, other.observed_frequency);
  });
}

async function check() {
  expect(await kept()).toEqual(await replayed());
  const view = await calibrationView(t.app.civitas);
  const full = await scored();
  same(view.overall, full.overall);
  same(view.by_forecaster.service, full.service);
  same(view.by_forecaster.sovereigns, full.sovereigns);
}

describe('calibration and streaks, kept', () => {
  it('equal a replay of every resolved prophecy and pact through every kind of change', async () => {
    const forecasters: [string, string | null][] = [
      ['service', null],
      ['sovereign', ada.id],
      ['sovereign', ben.id],
    ];
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const [kind, who] = at(forecasters, i % 3);
      const id = `pro_kept_${String(i).padStart(3, '0')}`;
      ids.push(id);
      await sql(
        `insert into prophecies (id, forecaster_kind, forecaster_id, metric, comparator, threshold, probability, made_at, due_at, receipt_id)
         values ($1, $2, $3, 'agents', 'gte', 10, $4, $5, $6, 'rcp_test')`,
        [
          id,
          kind,
          who,
          Math.round((0.05 + rand() * 0.9) * 100) / 100,
          new Date(BASE).toISOString(),
          new Date(BASE + i * HOUR).toISOString(),
        ],
      );
    }
    for (let i = 0; i < 24; i++)
      await sql(
        `insert into pacts (id, author_id, title, stake, made_at, due_at, status, receipt_id) values ($1, $2, 'a pact', 1, $3, $4, 'open', 'rcp_test')`,
        [
          `pact_kept_${String(i).padStart(3, '0')}`,
          i % 2 ? ada.id : ben.id,
          new Date(BASE).toISOString(),
          new Date(BASE + i * HOUR).toISOString(),
        ],
      );
    await check();

    // Resolved in a shuffled order, at times that go back and forth (a back-dated resolution
    // lands inside a run, not at its end).
    const order = [...ids].sort(() => rand() - 0.5);
    for (const [n, id] of order.entries()) {
      await sql('update prophecies set resolved_at = $2, observed = 1, outcome = $3 where id = $1', [
        id,
        new Date(BASE + 100 * HOUR + ((n * 37) % 60) * HOUR).toISOString(),
        rand() < 0.75,
      ]);
      if (n % 10 === 9) await check();
    }
    for (let i = 0; i < 24; i++)
      await sql(`update pacts set status = $2, resolved_at = $3, resolved_by = 'author' where id = $1`, [
        `pact_kept_${String(i).padStart(3, '0')}`,
        rand() < 0.8 ? 'kept' : 'broken',
        new Date(BASE + 200 * HOUR + ((i * 7) % 24) * HOUR).toISOString(),
      ]);
    await check();
    expect((await kept()).length).toBeGreaterThan(0);

    // An outcome corrected in place, a pact's answer changed, a prophecy deleted.
    await sql('update prophecies set outcome = not outcome where id = $1', [order[order.length - 1]]);
    await sql(`update pacts set status = 'broken' where id = 'pact_kept_023'`);
    await check();
    await sql('delete from prophecies where id = $1', [order[order.length - 2]]);
    await check();

    // An erasure moves ben's acts to an anonymous member (api/calibration/personal-data.ts).
    const anonymous = '00000000-0000-4000-8000-000000000001';
    await sql('update prophecies set forecaster_id = $2 where forecaster_id = $1', [ben.id, anonymous]);
    await sql('update pacts set author_id = $2 where author_id = $1', [ben.id, anonymous]);
    await check();

    // The feed and the card list the kept runs.
    const feed = await get('/streaks.xml');
    expect(feed.statusCode).toBe(200);
    expect(feed.body).toContain('in a row');
    expect(feed.body).not.toContain(ada.id);
    const card = await get('/streaks.svg');
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const api = (await get('/api/calibration')).json();
    expect(api.overall.count).toBe(59);
  });
});
