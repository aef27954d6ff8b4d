import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BURST_LIMIT } from '../../../shared/record/gate.ts';
import type { TestApp } from '../../helpers/app.ts';
import { TEST_ORIGIN } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { verifyNow } from './verify-now.ts';
import { requests } from '../../helpers/http.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * Self-knowledge that stays true (issue 12): what the service says about itself keeps agreeing
 * with what is stored — after an erasure, with holdings in the treasury, at the gate's own
 * threshold, on the day things happen, and in sentences that count.
 */
let t: TestApp;
let steward: TestSovereign;
const { get: json, post } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
});
afterAll(async () => t?.close());

describe('the record_window self-trial after an erasure', () => {
  it('stays green once a steward erases a sovereign whose bodies sat inside the window', async () => {
    const me = await signedInSovereign(t.app, { callsign: 'Leaving' });
    for (const body of ['first words before leaving', 'second words before leaving']) {
      expect((await post('/api/quick-imprint', { body }, me.cookie)).statusCode).toBe(200);
    }
    expect(
      (await post('/api/agent/imprint', { agent: 'window-stayer', body: 'an agent stays in the window' }))
        .statusCode,
    ).toBe(200);
    // Each reading follows a run of the verification job, which keeps what the views show.
    const trialOf = async () => {
      await verifyNow(t);
      return (await json('/api/self-trials'))
        .json()
        .trials.find((x: { name: string }) => x.name === 'record_window');
    };
    expect(await trialOf()).toMatchObject({ passed: true });

    const filed = await t.app.inject({
      method: 'POST',
      url: '/settings/data/request',
      headers: {
        origin: TEST_ORIGIN,
        cookie: me.cookie,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'kind=erasure',
    });
    expect(filed.statusCode).toBe(303);
    const [pending = missing()] = await sql<{ id: string }>(
      `select id from data_requests where sovereign_id = $1 and kind = 'erasure'`,
      [me.id],
    );
    const done = await post('/steward/data-requests', { id: pending.id, action: 'complete' }, steward.cookie);
    expect(done.statusCode).toBe(200);
    const [bodies = missing()] = await sql<{ retained: string }>(
      'select count(body) as retained from imprints',
    );
    expect(Number(bodies.retained)).toBe(1); // the two erased bodies are gone, the agent's stays

    const trial = await trialOf();
    expect(trial.passed, trial.detail).toBe(true);
    expect(trial.detail).toContain('1 body retained (plus 2 bodies erased');
    const truth = (await json('/api/truth')).json();
    expect(truth.checks.find((c: { claim: string }) => c.claim === 'window_bounded')).toMatchObject({
      held: true,
    });
    const vigilance = (await json('/api/vigilance')).json();
    expect(JSON.stringify(vigilance.alerts ?? [])).not.toContain('record_window');
    const soul = (await json('/api/soul')).json();
    expect(soul.commitments.find((c: { axiom: string }) => c.axiom === 'axiom-4')).toMatchObject({
      holds: true,
    });
  });

  it('still fails when a body inside the window is missing without an erasure', async () => {
    await post('/api/agent/imprint', { agent: 'window-stayer', body: 'another agent body in the window' });
    await sql(`update imprints set body = null where sequence = (select max(sequence) from imprints)`);
    try {
      await verifyNow(t);
      const trial = (await json('/api/self-trials'))
        .json()
        .trials.find((x: { name: string }) => x.name === 'record_window');
      expect(trial.passed).toBe(false);
    } finally {
      await sql(
        `update imprints set body = 'another agent body in the window' where sequence = (select max(sequence) from imprints)`,
      );
    }
  });
});

describe('sentences count correctly', () => {
  it('the time-lens says "1 question", "1 imprint was", never "1 questions"', async () => {
    // A fresh day of its own: exactly one question, one human, one agent.
    t.clock.set('2026-12-10T09:00:00.000Z');
    const asker = await signedInSovereign(t.app);
    expect(
      (
        await post(
          '/api/quick-imprint',
          { body: 'is anyone keeping the lanterns lit?', kind: 'question' },
          asker.cookie,
        )
      ).statusCode,
    ).toBe(200);
    const lens = (await json('/api/story/time-lens?from=2026-12-10&to=2026-12-10')).json();
    expect(lens.imprints).toMatchObject({ question: 1, thought: 0, signal: 0 });
    const story = lens.story.join(' ');
    expect(story).toContain(
      '1 imprint was recorded from 2026-12-10 to 2026-12-10: 0 thoughts, 1 question and 0 signals',
    );
    expect(story).toContain('with 1 imprint.');
    expect(story).toContain('1 human and 0 agents arrived');
    expect(story).not.toMatch(/\b1 (questions|imprints|humans|receipts|days)\b/);
  });
});

describe('vitals read the wallet from the equity projection', () => {
  it('publishes the same holdings /api/equity shows, through the projector (no holder id)', async () => {
    const holders = ['sovereign:aaaa', 'sovereign:bbbb', 'agent:ccc', 'agent:ddd', 'agent:eee', 'agent:fff'];
    for (const [i, h] of holders.entries()) {
      const [kind, ref] = h.split(':');
      await sql(
        `insert into treasury_patrons (holder_kind, holder_ref, public_ref, units, since) values ($1, $2, $3, $4, $5)`,
        [kind, `${ref}-raw-id`, ref, 100 * (i + 1), t.clock.now().toISOString()],
      );
    }
    const vitals = (await json('/api/vitals')).json();
    const { ok: _ok, ...equity } = (await json('/api/equity')).json();
    expect(equity.total_units).toBe(2100);
    expect(vitals.wallet).toEqual({ available: true, ...equity });
    expect(vitals.wallet).toMatchObject({ total_units: 2100, holders: 6, top_holder_share: 0.2857 });
    expect(JSON.stringify(vitals)).not.toContain('raw-id');
    expect(JSON.stringify(vitals)).not.toMatch(/not built/);
  });
});

describe("the prevention experiment uses the gate's own flood threshold", () => {
  it("a minute at the gate's limit is the gate working, not a flood that got through", async () => {
    t.clock.set('2026-12-11T10:00:05.000Z');
    const held: boolean[] = [];
    for (let i = 0; i <= BURST_LIMIT; i++) {
      const res = await post('/api/agent/imprint', {
        agent: 'flood-tester',
        body: `flood body number ${i} with its own words ${i * 7}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      held.push(res.json().held === true);
    }
    // The gate accepts BURST_LIMIT and holds the next.
    expect(held.filter((h) => !h)).toHaveLength(BURST_LIMIT);
    expect(held[BURST_LIMIT]).toBe(true);
    const findings = (await json('/api/experiments/prevention')).json().findings;
    expect(findings.held_burst).toBeGreaterThanOrEqual(1);
    expect(findings.flood_minutes).toBe(0);
    expect(findings.verdict).toBe('prevented');
  });
});

describe('branchworld includes today', () => {
  it('a service that gained six humans today projects upward, not flat', async () => {
    t.clock.set('2026-12-20T15:00:00.000Z');
    const [before = missing()] = await sql<{ n: string }>(`select count(*) as n from sovereigns`);
    await sql(`update sovereigns set created_at = '2026-11-01T00:00:00Z'`);
    for (let i = 0; i < 6; i++) await signedInSovereign(t.app);
    const id = 'pro_01KBBBBBBBBBBBBBBBBBBBBBBB';
    await sql(
      `insert into prophecies (id, forecaster_kind, metric, comparator, threshold, probability, made_at, due_at, receipt_id) values ($1, 'service', 'humans', 'gte', 100, 0.5, $2, $3, 'rcpt_x')`,
      [id, '2026-12-20T14:00:00.000Z', '2026-12-30T00:00:00.000Z'],
    );
    const view = (await json(`/branchworld/${id}`)).json();
    expect(view.trajectory).toHaveLength(30);
    const last = view.trajectory.at(-1);
    expect(last).toEqual({ date: '2026-12-20', value: Number(before.n) + 6 });
    expect(view.trajectory.at(-2)).toEqual({ date: '2026-12-19', value: Number(before.n) });
    expect(view.current).toBe(Number(before.n) + 6);
    expect(view.branch.per_day).toBeGreaterThan(0);
  });
});
