import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organismJobs } from '../../../../api/organism/jobs.ts';
import { JOBS } from '../../../../api/families.ts';
import type { TestApp } from '../../../helpers/app.ts';
import { verifyNow } from '../verify-now.ts';
import { requests } from '../../../helpers/http.ts';
import { missing } from '../../../helpers/elements.ts';
import { seededCohorts } from './cohorts.ts';

/**
 * The organism checking itself over time, on a seeded population (cohorts.ts): its claims as the
 * verification job checked them and the kept history (trust), the watch on its self-trials raising
 * and clearing alerts, and recovery per lane. What it concludes from the population is
 * conclusions.test.ts.
 */
let t: TestApp;

const { get: json, raw } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

beforeAll(async () => {
  ({ t } = await seededCohorts());
}, 120_000);
afterAll(async () => t?.close());

describe('GET /api/truth and /api/trust', () => {
  it('shows each claim as the verification job checked it, with evidence, and keeps the result', async () => {
    await verifyNow(t);
    const res = await json('/api/truth');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.claims).toBe(7);
    const byClaim = Object.fromEntries(body.checks.map((c: { claim: string }) => [c.claim, c]));
    for (const claim of [
      'window_bounded',
      'sequence_gap_free',
      'every_imprint_has_receipt',
      'anchor_chain_verifies',
      'sealed_days_complete',
      'censuses_never_shrink',
    ]) {
      expect(byClaim[claim].held, claim).toBe(true);
      expect(byClaim[claim].evidence.length).toBeGreaterThan(10);
    }
    expect(byClaim.window_bounded.evidence).toContain('lifetime 15');
    const trust = (await json('/api/trust')).json();
    expect(trust.checks).toBe(7);
    // Reading checks nothing and keeps nothing: the history grows by one round per job run.
    await json('/api/truth');
    expect((await json('/api/trust')).json().checks).toBe(7);
    t.clock.advance(2 * 60_000);
    await verifyNow(t);
    expect((await json('/api/trust')).json().checks).toBe(14);
  }, 60_000);

  it('shows a claim that stops holding, and trust counts the fraction held', async () => {
    await sql('update imprints set body = null where sequence = 15');
    try {
      t.clock.advance(2 * 60_000);
      await verifyNow(t);
      const body = (await json('/api/truth')).json();
      const window = body.checks.find((c: { claim: string }) => c.claim === 'window_bounded');
      expect(window.held).toBe(false);
      expect(window.evidence).toContain('expected min(lifetime 15');
      const trust = (await json('/api/trust')).json();
      const row = trust.claims.find((c: { claim: string }) => c.claim === 'window_bounded');
      expect(row).toMatchObject({ checks: 3, held: 2, fraction_held: 0.6667, last_held: false });
      expect(trust.not_proved).toContain('window_bounded');
      expect(trust.by_day[0]).toMatchObject({ date: '2026-11-22', checks: 21 });
    } finally {
      await sql(`update imprints set body = 'lanterns seen by a human' where sequence = 15`);
    }
  }, 60_000);
});

describe('GET /api/vigilance', () => {
  it('watches the self-trials and raises then clears an alert when one fails and recovers', async () => {
    await verifyNow(t);
    const first = (await json('/api/vigilance')).json();
    expect(first.watched.map((w: { trial: string }) => w.trial)).toEqual([
      'record_window',
      'gap_free_sequence',
      'anchor_chain',
      'boundaries',
      'receipts',
    ]);
    expect(first.watched.find((w: { trial: string }) => w.trial === 'receipts').passing).toBe(true);
    expect(first.open_alerts).toBe(0);
    const [{ receipt_id: original } = missing()] = await sql<{ receipt_id: string }>(
      'select receipt_id from imprints where sequence = 2',
    );
    await sql(`update imprints set receipt_id = 'rcpt_missing' where sequence = 2`);
    try {
      // The job (as the runner calls it) raises the alert.
      const vigilance = JOBS.find((job) => job.name === 'organism.vigilance')!;
      expect(vigilance).toBe(organismJobs[0]);
      t.clock.advance(60_000);
      expect(await vigilance.run(t.app.civitas, t.app)).toMatchObject({ ran: true, raised: ['receipts'] });
      const raised = (await json('/api/vigilance')).json();
      expect(raised.open_alerts).toBe(1);
      expect(raised.alerts[0]).toMatchObject({ trial: 'receipts', open: true, cleared_at: null });
      expect(raised.watched.find((w: { trial: string }) => w.trial === 'receipts').passing).toBe(false);
    } finally {
      await sql('update imprints set receipt_id = $1 where sequence = 2', [original]);
    }
    t.clock.advance(5 * 60_000);
    await verifyNow(t);
    const cleared = (await json('/api/vigilance')).json();
    expect(cleared.this_pass).toEqual({ raised: [], cleared: ['receipts'] });
    // The truth test above already had the job raise and clear one alert (record_window).
    expect(cleared).toMatchObject({
      alerts_raised: first.alerts_raised + 1,
      alerts_cleared: first.alerts_cleared + 1,
      open_alerts: 0,
    });
    expect(cleared.alerts[0].seconds).toBe(300);
    const steps = await sql<{ step: string }>(
      `select step from receipts where step like 'organism.alert.%' and subject = 'trial:receipts' order by recorded_at`,
    );
    expect(steps.map((s) => s.step)).toEqual(['organism.alert.raised', 'organism.alert.cleared']);
    // The job also kept a round of truth checks.
    expect((await json('/api/trust')).json().checks).toBeGreaterThanOrEqual(28);
  }, 60_000);
});

describe('GET /api/recovery', () => {
  it('measures per lane the time from a failure to the next clean minute', async () => {
    const buckets = '{0,0,0,0,0,0,0,0,0,0,0,0}';
    await sql(
      `insert into failures (lane, at) values ('runtime', '2026-11-22T10:00:30Z'), ('runtime', '2026-11-22T10:00:40Z'), ('mcp', '2026-11-22T11:00:10Z')`,
    );
    await sql(
      `insert into vitals_minutes (process_id, minute, requests, client_errors, server_errors, buckets) values
        ('other', '2026-11-22T10:00:00Z', 4, 0, 2, $1), ('other', '2026-11-22T10:01:00Z', 5, 0, 0, $1),
        ('other', '2026-11-22T11:00:00Z', 3, 0, 1, $1), ('other', '2026-11-22T11:01:00Z', 3, 0, 1, $1),
        ('other', '2026-11-22T11:02:00Z', 2, 1, 0, $1)`,
      [buckets],
    );
    const res = await json('/api/recovery');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json();
    const runtime = body.by_lane.find((l: { lane: string }) => l.lane === 'runtime');
    expect(runtime).toMatchObject({
      incidents: 1,
      recovered: 1,
      median_recovery_seconds: 60,
      max_recovery_seconds: 60,
    });
    const mcp = body.by_lane.find((l: { lane: string }) => l.lane === 'mcp');
    expect(mcp).toMatchObject({ incidents: 1, median_recovery_seconds: 120 });
    expect(body.recent.find((i: { lane: string }) => i.lane === 'runtime')).toMatchObject({
      failures: 2,
      minute: '2026-11-22T10:00:00.000Z',
      recovered_at: '2026-11-22T10:01:00.000Z',
    });
    const card = await raw('/recovery/card.svg');
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toContain('image/svg+xml');
    expect(card.headers['cache-control']).toBe('private, no-store');
    expect(card.body).toContain('runtime: 1 incident,');
  });
});
