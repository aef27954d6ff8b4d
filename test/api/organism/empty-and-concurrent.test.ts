import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../api/record/window.ts';
import { dreamJob } from '../../../api/organism/themes/dreaming.ts';
import { knowledgeRun } from '../../../api/organism/checks/knowledge.ts';
import { censusHost } from '../../../api/boundaries/live-probes.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { missing } from '../../helpers/elements.ts';
import { imprintDraft } from '../../helpers/imprint-draft.ts';

/** The second-part organism surfaces on an empty service, under concurrency, and at their limits. */
let t: TestApp;
const { get: json } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t?.close());

describe('an empty service', () => {
  it('answers every surface with honest empty figures', async () => {
    const drift = (await json('/api/drift')).json();
    expect(drift.kinds.divergence).toBeNull();
    expect(drift.topics).toMatchObject({ divergence: null, rising: [], fading: [] });
    const season = (await json('/api/season')).json();
    expect(season.figures).toMatchObject({
      imprints: 0,
      new_agents: 0,
      new_humans: 0,
      receipts: 0,
      prophecies_resolved: 0,
    });
    expect(season.themes).toEqual([]);
    const journal = (await json('/api/journal?days=90')).json();
    expect(journal.entries).toHaveLength(90);
    expect(
      journal.entries.every(
        (e: { imprints: number; census: unknown }) => e.imprints === 0 && e.census === null,
      ),
    ).toBe(true);
    const trust = (await json('/api/trust')).json();
    expect(trust).toMatchObject({ checks: 0, fraction_held: null, proved_now: [] });
    expect(trust.not_proved).toHaveLength(7);
    const lin = (await json('/api/linearizability')).json();
    expect(lin).toMatchObject({
      linearizable: true,
      record: { checked: 0, violations: 0 },
      receipts: { violations: 0 },
    });
    const recovery = (await json('/api/recovery')).json();
    expect(recovery).toMatchObject({ incidents: 0, median_recovery_seconds: null, by_lane: [] });
    const discrimination = (await json('/api/discrimination')).json();
    expect(discrimination).toMatchObject({ by_kind: [], by_cohort: [] });
    expect(discrimination.disparities.kinds.hold_rate).toBeNull();
    expect((await json('/api/dreaming')).json()).toMatchObject({ dreams_total: 0, latest: null, dreams: [] });
    const card = await t.app.inject({ method: 'GET', url: '/dreaming/card.svg' });
    expect(card.body).toContain('No dream yet.');
  });

  it('dreams of nothing honestly when no learnable body came in', async () => {
    expect(await dreamJob(t.app.civitas)).toMatchObject({ made: true });
    expect((await json('/api/dreaming')).json().latest).toMatchObject({ bodies: 0, terms: [] });
  });
});

describe('concurrency', () => {
  it('makes one dream a day however many processes try at once', async () => {
    t.clock.advance(86_400_000);
    const results = await Promise.all(Array.from({ length: 6 }, () => dreamJob(t.app.civitas)));
    expect(results.filter((r) => r.made)).toHaveLength(1);
    const [row = missing()] = await sql<{ n: string }>('select count(*) as n from dreams');
    expect(Number(row.n)).toBe(2);
  });

  it('raises one alert for a failing trial however many watch passes run at once', async () => {
    await t.database.db.transaction((tx) =>
      appendImprint(
        tx,
        imprintDraft({ body: 'watched', authorRef: 'edge', unattested: true, at: t.clock.now() }),
      ),
    );
    await sql(`update imprints set receipt_id = 'rcpt_gone' where sequence = 1`);
    const passes = await Promise.all(
      Array.from({ length: 4 }, () => knowledgeRun(t.app.civitas, censusHost(t.app))),
    );
    expect(passes.flatMap((p) => p.raised)).toEqual(['receipts']);
    await knowledgeRun(t.app.civitas, censusHost(t.app));
    const [row = missing()] = await sql<{ n: string }>(
      `select count(*) as n from vigilance_alerts where trial = 'receipts'`,
    );
    expect(Number(row.n)).toBe(1);
  }, 60_000);
});

describe('limits and malformed input', () => {
  it('refuses malformed journal and policy queries with 400, never 500', async () => {
    for (const url of [
      '/api/journal?days=-1',
      '/api/journal?days=1e9',
      `/api/journal?days=${'9'.repeat(400)}`,
      '/api/policy/evaluate?action=imprint&actor=agent:a&actor=agent:b',
      `/api/policy/evaluate?action=imprint&actor=${'x'.repeat(5000)}`,
    ]) {
      const res = await json(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().reason, url).toBe('invalid_request');
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
  });
});
