import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../../../../api/jobs/runner.ts';
import { MIGRATIONS } from '../../../../api/db/migrations/index.ts';
import type { TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';
import { NOW, seventyDaysOld } from './seventy-days-old.ts';

/**
 * How the organism describes itself from stored figures: its persona (kinds apart, compared with
 * 30 days ago, month-end history, a templated narrative), its soul (purpose and axioms, a check
 * that cannot run projected), its evolution (migrations and articles) and its dispatch of jobs.
 * Its mind is mind.test.ts.
 */
let t: TestApp;

const { get: json } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

beforeAll(async () => {
  ({ t } = await seventyDaysOld());
}, 180_000);
afterAll(async () => t?.close());

describe('persona', () => {
  it('describes the service from stored figures, kinds apart', async () => {
    const body = (await json('/api/persona')).json();
    expect(body.schema).toBe('civitas.persona.v1');
    expect(body.figures.population).toEqual({ humans: 6, agents: 0 });
    expect(body.figures.imprints_lifetime).toBe(7);
    expect(body.figures.busiest_kinds).toEqual([{ kind: 'question', imprints: 4 }]);
    expect(body.figures.age_days).toBe(70);
    expect(body.voice).toBe('growing');
    expect(['confident', 'watchful']).toContain(body.stance);
  });

  it('becoming compares with 30 days ago, history keeps month ends, narrative is templated', async () => {
    const becoming = (await json('/api/persona/becoming')).json();
    expect(becoming.changes.imprints_lifetime).toEqual({ before: 3, after: 7, change: 4, ratio: 2.333 });
    expect(becoming.why.join(' ')).toContain('4 imprints arrived');
    const history = (await json('/api/persona/history')).json();
    expect(history.snapshots.map((s: { month: string }) => s.month)).toEqual(['2026-10', '2026-09']);
    expect(history.snapshots[0].imprints_lifetime).toBe(3);
    const narrative = (await json('/api/persona/narrative')).json();
    expect(narrative.narrative).toMatch(/^I am civitas, 70 days old\./);
    expect(narrative.narrative).toContain('6 humans and 0 agents');
  });
});

describe('GET /api/soul', () => {
  it('states the purpose and checks each axiom; structural ones read null and are not counted as holding', async () => {
    const res = await json('/api/soul');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.commitments).toHaveLength(8);
    const by = (id: string) => body.commitments.find((c: { axiom: string }) => c.axiom === id);
    expect(by('axiom-1').holds).toBeNull();
    expect(by('axiom-4').holds).toBe(true);
    // Axioms 5 and 6 tested pure code against itself (they could never fail on stored data): they
    // are structural now, like 1 and 8, and count neither as holding nor as unchecked.
    expect(by('axiom-5')).toMatchObject({ check: 'kinds_never_summed', structural: true, holds: null });
    expect(by('axiom-6')).toMatchObject({ structural: true, holds: null });
    expect(by('axiom-7')).toMatchObject({ structural: false, holds: true });
    expect(body.structural).toBe(4);
    expect(body.unchecked).toBe(0);
    expect(body.holding).toBe(
      body.commitments.filter(
        (c: { structural: boolean; holds: boolean | null }) => !c.structural && c.holds === true,
      ).length,
    );
  });

  it('projects a check that cannot run through failure_projection (lane soul), without the runtime words', async () => {
    await sql('alter table governance_articles rename to governance_articles_away');
    try {
      const res = await json('/api/soul');
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/does not exist|relation|governance_articles/);
      const axiom7 = res.json().commitments.find((c: { axiom: string }) => c.axiom === 'axiom-7');
      expect(axiom7).toMatchObject({
        holds: false,
        failure: { ok: false, reason: 'internal_error', lane: 'soul' },
      });
      expect(Object.keys(axiom7.failure).sort()).toEqual(['hint', 'lane', 'ok', 'reason']);
    } finally {
      await sql('alter table governance_articles_away rename to governance_articles');
    }
  });
});

describe('GET /api/evolution', () => {
  it('lists every applied migration and ratified article, newest first', async () => {
    const body = (await json('/api/evolution')).json();
    expect(body.migrations).toBe(MIGRATIONS.length);
    expect(body.articles).toBe(0);
    expect(body.changes.map((c: { migration?: string }) => c.migration)).toContain(
      'Migration0016OrganismMind',
    );
    const times = body.changes.map((c: { at: string }) => c.at);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe('GET /api/dispatch', () => {
  it('lists the jobs; a run records its outcome; a failure shows its lane, never its words', async () => {
    const before = (await json('/api/dispatch')).json();
    expect(before.jobs.map((j: { name: string }) => j.name)).toContain('ledger.seal');
    expect(before.jobs.find((j: { name: string }) => j.name === 'ledger.seal').last_run).toBeNull();
    expect(before.notices.available).toBe(false);
    const jobs = startJobs(
      t.app,
      [
        { name: 'ledger.seal', intervalMs: 60_000, run: async () => undefined },
        {
          name: 'people.census',
          intervalMs: 60_000,
          run: async () => {
            throw new Error('SECRET-RUNTIME-WORDS relation does not exist');
          },
        },
      ],
      { initialDelayMs: 3_600_000 },
    );
    await jobs.runOnce();
    await jobs.runOnce();
    await jobs.stop();
    const res = await json('/api/dispatch');
    expect(res.body).not.toContain('SECRET-RUNTIME-WORDS');
    const body = res.json();
    const seal = body.jobs.find((j: { name: string }) => j.name === 'ledger.seal');
    expect(seal).toMatchObject({
      tries: 2,
      failures: 0,
      last_run: { outcome: 'ok' },
      next_due_at: new Date(NOW + 60_000).toISOString(),
    });
    const census = body.jobs.find((j: { name: string }) => j.name === 'people.census');
    expect(census).toMatchObject({
      tries: 2,
      failures: 2,
      last_run: { outcome: 'failed', failure: { ok: false, reason: 'internal_error', lane: 'runtime' } },
    });
  });
});
