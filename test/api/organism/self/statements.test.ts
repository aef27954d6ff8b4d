import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { sqlOver } from '../../../../api/db/kysely.ts';
import type { Sql } from '../../../../api/db/database.ts';
import type { AppContext } from '../../../../api/context.ts';
import { censusHost } from '../../../../api/boundaries/live-probes.ts';
import { organismView } from '../../../../api/organism/self/organism.ts';
import { stateView } from '../../../../api/organism/self/state.ts';
import { becomingView, narrativeView, personaView } from '../../../../api/organism/self/persona.ts';
import { seasonView } from '../../../../api/organism/self/season.ts';
import { ALL_IMPRINTS, countBetween } from '../../../../api/organism/self/tallies.ts';
import { vitalsView } from '../../../../api/organism/vitals/vitals.ts';
import { metabolismView } from '../../../../api/organism/vitals/metabolism.ts';
import { driftView } from '../../../../api/organism/themes/drift.ts';
import { keptSelfTrials } from '../../../../api/organism/checks/knowledge.ts';
import { createTestApp, TestClock, type TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

/*
 * The organism's and the persona's views in few statements: on the embedded database every
 * statement runs after the one before (docs/scale.md, "Embedded"), so a view that sends forty
 * costs forty round trips. /api/organism reads only the blocks it shows, in the same figures the
 * full views give; the narrative reads each instant's figures once; a count over a period is one
 * statement whatever its ranges and edges.
 */
let t: TestApp;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const NOW = '2026-11-22T12:34:56.789Z';
const { get } = requests(() => t.app);

/** The app's context whose every statement (Kysely's included) is recorded. */
function counting(ctx: AppContext) {
  const texts: string[] = [];
  const query = (<T>(text: string, params?: unknown[]) => {
    texts.push(text);
    return ctx.db.query<T>(text, params);
  }) as Sql['query'];
  return { ctx: { ...ctx, db: { ...ctx.db, ...sqlOver(query) } } as AppContext, texts };
}

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock(NOW) });
  const now = Date.parse(NOW);
  // Imprints over three weeks, off the hour: every period the views ask about has ragged edges.
  const at = [20 * DAY, 9 * DAY + 5 * HOUR, 3 * DAY + 17 * 60_000, 2 * HOUR + 11_000, 40 * 60_000];
  for (const [i, ago] of at.entries())
    await t.database.db.transaction((tx) =>
      appendImprint(
        tx,
        imprintDraft({
          kind: i % 2 ? 'question' : 'thought',
          body: `rivers and gardens, imprint ${i}`,
          authorRef: 'statements-probe',
          held: i === 4,
          heldReason: i === 4 ? 'link_density' : null,
          at: new Date(now - ago),
        }),
      ),
    );
  expect((await get('/api/organism')).statusCode).toBe(200); // the first knowledge run, kept
});
afterAll(async () => t?.close());

describe('the organism and the persona on few statements', () => {
  it('counts a period with hours, days and ragged edges of both sources in one statement', async () => {
    const { ctx, texts } = counting(t.app.civitas);
    const from = new Date(Date.parse(NOW) - 10 * DAY - 7 * 60_000);
    const counted = await countBetween(ctx.db, [...ALL_IMPRINTS, 'agents', 'sovereigns'], from, null);
    expect(texts).toHaveLength(1);
    expect([...counted.values()].reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('/api/organism reads its blocks in at most 15 statements, the same figures the full views give', async () => {
    const ctx = t.app.civitas;
    const host = censusHost(t.app);
    const [state, vitals, metabolism, drift, season, trials] = await Promise.all([
      stateView(ctx),
      vitalsView(ctx),
      metabolismView(ctx),
      driftView(ctx),
      seasonView(ctx),
      keptSelfTrials(ctx, host),
    ]);
    const counted = counting(ctx);
    const organism = await organismView(counted.ctx, host);
    expect(counted.texts.length).toBeLessThanOrEqual(15);
    expect(organism.population).toEqual({ humans: state.population.humans, agents: state.population.agents });
    expect(organism.record).toEqual(state.record);
    expect(organism.ledger).toEqual({
      receipts: state.ledger.receipts,
      anchors: state.ledger.anchors,
      latest_anchor: state.ledger.latest_anchor,
    });
    expect(organism.quarantine).toEqual({
      unattested: state.quarantine.unattested_count,
      held: state.quarantine.held,
    });
    expect(organism.vitals).toEqual({
      requests_per_minute: vitals.requests_per_minute,
      error_rate: vitals.error_rate,
      latency_p95_ms: vitals.latency_p95_ms,
      database: vitals.database,
    });
    expect(organism.metabolism).toEqual({
      last_day: metabolism.last_day,
      residence_hours: metabolism.residence_hours,
    });
    expect(metabolism.last_day.intake).toBe(2); // the last 24 hours: two imprints, one of them held
    expect(organism.drift).toEqual({
      kinds_divergence: drift.kinds.divergence,
      topics_divergence: drift.topics.divergence,
      rising: drift.topics.rising,
    });
    expect(organism.season).toEqual({
      season: season.season,
      day: season.day,
      days: season.days,
      figures: season.figures,
      themes: season.themes.slice(0, 5),
    });
    expect(organism.self_trials.as_of).toBe(trials.as_of);
    expect(organism.boundaries).toEqual(trials.boundaries);
    // Keys in the contract's order, whatever composes them.
    expect(Object.keys(organism)).toEqual(Object.keys((await get('/api/organism')).json()));
  });

  it("the narrative reads each instant's figures once: at most 7 statements, persona and becoming agreeing", async () => {
    const ctx = t.app.civitas;
    const host = censusHost(t.app);
    const [persona, becoming] = await Promise.all([personaView(ctx, host), becomingView(ctx)]);
    const counted = counting(ctx);
    const narrative = await narrativeView(counted.ctx, host);
    expect(counted.texts.length).toBeLessThanOrEqual(7);
    expect(narrative.voice).toBe(persona.voice);
    expect(narrative.stance).toBe(persona.stance);
    expect(narrative.sentences).toContain(
      `My Record has taken 5 imprints, and I keep the bodies of the newest 500.`,
    );
    expect(narrative.sentences.at(-1)).toBe(becoming.why[0]);
  });
});
