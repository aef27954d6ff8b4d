import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { takeCensus, runCensusJob } from '../../../api/people/census.ts';
import { joinSmallMonths } from '../../../api/people/cohorts.ts';
import { requests } from '../../helpers/http.ts';
import { at } from '../../helpers/elements.ts';

/**
 * Counting people over time, each test on a fresh service with its clock set: cohorts by join month
 * (humans and agents apart, k-anonymous, small months joined) and the daily census snapshots
 * (taken once a day is over, with a receipt, backfilled by the job). Presence, the roster, the
 * mirror and resonance are people.test.ts.
 */

describe('cohorts by join month', () => {
  it('publishes humans and agents as separate k-anonymous counts (0..6) and joins small months', async () => {
    const fresh = await createTestApp();
    const { raw } = requests(() => fresh.app);
    try {
      fresh.clock.set('2026-01-15T12:00:00.000Z');
      const cohorts = async () => (await raw('/api/cohorts')).json();
      expect((await cohorts()).cohorts).toEqual([]);
      for (let n = 1; n <= 6; n++) {
        await signedInSovereign(fresh.app);
        const view = await cohorts();
        expect(view.cohorts).toEqual([
          { month: '2026-01', humans: n < 5 ? 'fewer than 5' : n, agents: 'fewer than 5' },
        ]);
        expect(JSON.stringify(view.cohorts)).not.toMatch(/joined |members|label|[0-9a-f]{8}-[0-9a-f]{4}/);
      }
      fresh.clock.set('2026-02-10T12:00:00.000Z');
      await signedInSovereign(fresh.app);
      await signedInSovereign(fresh.app);
      expect((await cohorts()).cohorts).toEqual([
        { month: '2026-01/2026-02', humans: 8, agents: 'fewer than 5' },
      ]);
      fresh.clock.set('2026-03-10T12:00:00.000Z');
      for (let i = 0; i < 3; i++) await signedInSovereign(fresh.app);
      expect((await cohorts()).cohorts).toEqual([
        { month: '2026-01', humans: 6, agents: 'fewer than 5' },
        { month: '2026-02/2026-03', humans: 5, agents: 'fewer than 5' },
      ]);
      const federated = await raw('/api/cohorts/federated');
      expect(federated.json()).toMatchObject({ ok: true, peers: 0, cohorts: [] });
    } finally {
      await fresh.close();
    }
  });

  it('joinSmallMonths keeps each kind in a period at 0 or ≥ 5', () => {
    const m = (kind: 'sovereign' | 'agent', n: number) =>
      Array.from({ length: n }, (_, i) => ({ actor_id: `${kind}${i}`, kind }));
    const periods = joinSmallMonths([
      { month: '2025-01', members: [...m('sovereign', 5), ...m('agent', 1)] },
      { month: '2025-02', members: m('agent', 4) },
      { month: '2025-03', members: m('sovereign', 1) },
    ]);
    expect(periods.map((p) => [p.from, p.to, p.members.length])).toEqual([['2025-01', '2025-03', 11]]);
  });
});

describe('census snapshots', () => {
  it('takes a day only once it is over, once, with a receipt; the job backfills; /api/censuses lists them', async () => {
    const fresh = await createTestApp();
    const { raw, post } = requests(() => fresh.app);
    try {
      fresh.clock.set('2026-05-01T10:00:00.000Z');
      await signedInSovereign(fresh.app);
      await post('/api/agent/imprint', { agent: 'census-bot', body: 'counted' });
      expect(await takeCensus(fresh.app.civitas, '2026-05-01')).toEqual({
        taken: false,
        reason: 'day_not_over',
      });
      expect(await takeCensus(fresh.app.civitas, '2026-02-30')).toEqual({
        taken: false,
        reason: 'invalid_date',
      });
      expect(await takeCensus(fresh.app.civitas, 'nonsense')).toEqual({
        taken: false,
        reason: 'invalid_date',
      });
      fresh.clock.set('2026-05-02T00:00:30.000Z');
      // something recorded after midnight is not in the census of May 1st
      await signedInSovereign(fresh.app);
      const [a, b] = await Promise.all([
        takeCensus(fresh.app.civitas, '2026-05-01'),
        takeCensus(fresh.app.civitas, '2026-05-01'),
      ]);
      const taken = [a, b].filter((r) => r.taken);
      expect(taken).toHaveLength(1);
      const census = at(taken, 0).census!;
      expect(census).toMatchObject({
        date: '2026-05-01',
        humans: 1,
        agents: 1,
        imprints_lifetime: 1,
        imprints_retained: 1,
      });
      expect(census.receipts).toBeGreaterThanOrEqual(2);
      expect((await raw(`/api/receipt/${census.receipt_id}`)).statusCode).toBe(200);
      expect(await takeCensus(fresh.app.civitas, '2026-05-01')).toMatchObject({
        taken: false,
        reason: 'already_taken',
        census,
      });

      fresh.clock.set('2026-05-05T08:00:00.000Z');
      const job = await runCensusJob(fresh.app.civitas);
      expect(job).toEqual({ ran: true, taken: ['2026-05-02', '2026-05-03', '2026-05-04'] });
      expect((await runCensusJob(fresh.app.civitas)).taken).toEqual([]);
      const list = (await raw('/api/censuses?limit=2')).json();
      expect(list.censuses.map((c: { date: string }) => c.date)).toEqual(['2026-05-04', '2026-05-03']);
      expect(list.censuses[0]).toMatchObject({ humans: 2, agents: 1 });
      const rest = (await raw(list.next)).json();
      expect(rest.censuses.map((c: { date: string }) => c.date)).toEqual(['2026-05-02', '2026-05-01']);
      for (const bad of ['before=yesterday', 'limit=0', 'limit=9999']) {
        expect((await raw(`/api/censuses?${bad}`)).statusCode, bad).toBe(400);
      }
    } finally {
      await fresh.close();
    }
  });

  it('an empty service has no census to take', async () => {
    const fresh = await createTestApp();
    const { raw } = requests(() => fresh.app);
    try {
      expect(await runCensusJob(fresh.app.civitas)).toEqual({ ran: true, taken: [] });
      expect((await raw('/api/censuses')).json()).toMatchObject({
        ok: true,
        censuses: [],
        next: null,
      });
    } finally {
      await fresh.close();
    }
  });
});
