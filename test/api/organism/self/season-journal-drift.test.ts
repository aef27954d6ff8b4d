import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { signedInSovereign } from '../../../helpers/identity.ts';
import { requests } from '../../../helpers/http.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

let t: TestApp;
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-22T12:00:00.000Z');

const { get: json } = requests(() => t.app);

async function seed(
  kind: 'thought' | 'question' | 'signal',
  body: string,
  at: number,
  extra: { unattested?: boolean; held?: boolean; author?: string } = {},
) {
  await t.database.db.transaction((tx) =>
    appendImprint(
      tx,
      imprintDraft({
        kind,
        body,
        authorRef: extra.author ?? 'drift-probe',
        unattested: extra.unattested ?? false,
        held: extra.held ?? false,
        heldReason: extra.held ? 'link_density' : null,
        at: new Date(at),
      }),
    ),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  // Last week: 6 thoughts about gardens; this week: 4 questions about rivers, 2 thoughts about gardens.
  for (let i = 0; i < 6; i++)
    await seed('thought', `gardens bloom slowly number ${i}`, NOW - 10 * DAY + i * 60_000);
  for (let i = 0; i < 4; i++)
    await seed('question', `rivers carry sediment downstream ${i}`, NOW - 2 * DAY + i * 60_000);
  for (let i = 0; i < 2; i++) await seed('thought', `gardens need rivers ${i}`, NOW - DAY + i * 60_000);
  // Held and quarantined bodies never feed topics.
  await seed('signal', 'spammy spammy casino', NOW - DAY + 10 * 60_000, { held: true });
  await seed('signal', 'quarantined whisperword', NOW - DAY + 11 * 60_000, { unattested: true });
  await signedInSovereign(t.app);
}, 120_000);
afterAll(async () => t?.close());

describe('GET /api/drift', () => {
  it('measures week-over-week divergence of kinds and topics from stored imprints', async () => {
    const res = await json('/api/drift');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.last_week.kinds).toEqual({ thought: 6, question: 0, signal: 0 });
    expect(body.this_week.kinds).toEqual({ thought: 2, question: 4, signal: 1 }); // held left out, quarantined counted
    expect(body.kinds.divergence).toBeGreaterThan(0.2);
    expect(body.kinds.divergence).toBeLessThanOrEqual(1);
    const terms = body.topics.this_week.terms.map((x: { term: string }) => x.term);
    expect(terms).toContain('rivers');
    expect(terms).not.toContain('casino');
    expect(terms).not.toContain('whisperword');
    expect(body.topics.rising).toContain('rivers');
    expect(body.topics.last_week.terms).toContainEqual({ term: 'gardens', documents: 6, occurrences: 6 });
    expect(body.topics.fading).toContain('bloom');
    expect(JSON.stringify(body)).not.toContain('drift-probe');
  });
});

describe('GET /api/season', () => {
  it('reports the current calendar quarter and its figures so far', async () => {
    const body = (await json('/api/season')).json();
    expect(body.season).toBe('2026-Q4');
    expect(body.starts).toBe('2026-10-01T00:00:00.000Z');
    expect(body.ends).toBe('2027-01-01T00:00:00.000Z');
    expect(body.figures.imprints).toBe(14);
    expect(body.figures.new_humans).toBe(1);
    expect(body.figures.receipts).toBeGreaterThanOrEqual(14);
    expect(body.figures.prophecies_resolved).toBe(0);
  });
});

describe('GET /api/journal', () => {
  it('writes one entry per UTC day from stored events', async () => {
    const body = (await json('/api/journal?days=14')).json();
    expect(body.entries).toHaveLength(14);
    expect(body.entries[0].date).toBe('2026-11-22');
    const tenDaysAgo = body.entries.find((e: { date: string }) => e.date === '2026-11-12');
    expect(tenDaysAgo.imprints_by_kind.thought).toBe(6);
    expect(tenDaysAgo.receipts).toBe(6);
    const today = body.entries[0];
    expect(today.sovereigns_crossed).toBe(1);
    expect(today.text).toContain('sovereign crossed');
  });

  it('refuses malformed and out-of-range days with 400', async () => {
    for (const q of ['days=abc', 'days=0', 'days=91', 'days=1.5']) {
      const res = await json(`/api/journal?${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
    expect((await json('/api/journal')).json().entries).toHaveLength(14);
  });
});

describe('GET /api/organism carries drift and season', () => {
  it('summarises the same drift and season projections', async () => {
    const organism = (await json('/api/organism')).json();
    const drift = (await json('/api/drift')).json();
    expect(organism.drift).toEqual({
      kinds_divergence: drift.kinds.divergence,
      topics_divergence: drift.topics.divergence,
      rising: drift.topics.rising,
    });
    expect(organism.season).toMatchObject({ season: '2026-Q4', figures: { imprints: 14 } });
  }, 60_000);
});
