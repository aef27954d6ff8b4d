import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { IMPRINT_KINDS } from '../../../../shared/record/imprint.ts';
import { countBetween, heldKind, shownKind } from '../../../../api/organism/self/tallies.ts';
import { createTestApp, TestClock, type TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';
import { at as elementAt, missing } from '../../../helpers/elements.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

/*
 * The season, persona, journal, metabolism and drift count rows by time from the one system of
 * tallies the writers keep (migrations 0062 and 0074: imprint hours and days, arrival days; receipts
 * as the log days' sizes), not from the rows. These tests compare every count with count(*)
 * over the rows themselves, for periods with ragged edges, after writes through the Record's own
 * appendImprint and after rows are changed or deleted behind the service's back (a held flag, a
 * kind, a time moved, an agent deleted): the tallies follow every statement, so the views do too.
 */
let t: TestApp;
const HOUR = 3_600_000;
const DAY = 86_400_000;
// Off the hour on purpose: every period below has ragged edges.
const NOW = Date.parse('2026-11-22T12:34:56.789Z');
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);
const { get } = requests(() => t.app);
const json = async (url: string) => (await get(url)).json();

const NAMES = [
  ...IMPRINT_KINDS.flatMap((k) => [shownKind(k), heldKind(k)]),
  'imprints_by_agents',
  'evictions',
  'agents',
  'sovereigns',
];

/** The same count, from the rows: what the tallies must always equal. */
async function direct(from: Date, to: Date | null): Promise<Map<string, number>> {
  const range = [from.toISOString(), to ? to.toISOString() : 'infinity'];
  const rows = await sql<{ name: string; n: string | number }>(
    `select case when held then 'imprints_held.' else 'imprints.' end || kind as name, count(*) as n
       from imprints where created_at >= $1 and created_at < $2 group by 1
     union all select 'imprints_by_agents', count(*) from imprints where author_kind = 'agent' and created_at >= $1 and created_at < $2
     union all select 'evictions', count(*) from imprints where sequence > 500 and created_at >= $1 and created_at < $2
     union all select 'agents', count(*) from agents where first_seen_at >= $1 and first_seen_at < $2
     union all select 'sovereigns', count(*) from sovereigns where created_at >= $1 and created_at < $2
     union all select 'receipts', count(*) from receipts where recorded_at >= $1 and recorded_at < $2`,
    range,
  );
  const out = new Map([...NAMES, 'receipts'].map((name) => [name, 0]));
  for (const row of rows) out.set(row.name, (out.get(row.name) ?? 0) + Number(row.n));
  return out;
}

/** Periods with edges inside hours, across days, within one hour, and open-ended. */
const PERIODS: [number, number | null][] = [
  [NOW - 30 * DAY, NOW + 1],
  [NOW - 7 * DAY, NOW],
  [NOW - 14 * DAY, NOW - 7 * DAY],
  [NOW - 40 * DAY - 17 * 60_000, null],
  [NOW - 2 * HOUR - 1234, NOW - HOUR - 99],
  [NOW - 20 * 60_000, NOW - 10 * 60_000],
  [Date.parse('2026-10-01T00:00:00Z'), NOW + 1],
  [NOW - 3 * DAY - 5 * HOUR, NOW - DAY + 7 * HOUR + 1],
];

async function expectTalliesMatchRows() {
  for (const [from, to] of PERIODS) {
    const kept = await countBetween(t.database.db, NAMES, new Date(from), to === null ? null : new Date(to));
    const rows = await direct(new Date(from), to === null ? null : new Date(to));
    rows.delete('receipts');
    expect(Object.fromEntries(kept), `[${new Date(from).toISOString()}, ${to}]`).toEqual(
      Object.fromEntries(rows),
    );
  }
}

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock(new Date(NOW).toISOString()) });
  // 600 imprints over 45 days, 80 minutes apart plus a few seconds: past the window, so some evict.
  for (let i = 0; i < 600; i++) {
    const at = NOW - 45 * DAY + i * 80 * 60_000 + (i % 7) * 1_013;
    await t.database.db.transaction((tx) =>
      appendImprint(
        tx,
        imprintDraft({
          kind: elementAt(IMPRINT_KINDS, i % 3),
          body: `tally probe ${i}`,
          authorKind: i % 4 === 0 ? 'sovereign' : 'agent',
          authorRef: i % 4 === 0 ? 'abcd' : `probe-${i % 9}`,
          held: i % 11 === 0,
          heldReason: i % 11 === 0 ? 'link_density' : null,
          at: new Date(at),
        }),
      ),
    );
  }
  for (let i = 0; i < 30; i++)
    await sql(
      `insert into agents (handle, secret_hash, first_seen_at, last_seen_at) values ($1, 'x', $2, $2)`,
      [`arrival-${i}`, new Date(NOW - i * 37 * HOUR - i * 61_000).toISOString()],
    );
}, 180_000);
afterAll(async () => t?.close());

describe('time tallies (migrations 0062, 0074)', () => {
  it('equal count(*) over the rows for periods with ragged edges', async () => {
    await expectTalliesMatchRows();
  });

  it('follow rows changed or deleted behind the service, and the views with them', async () => {
    await sql(`update imprints set held = not held where sequence in (520, 560, 590)`);
    await sql(`update imprints set kind = 'signal' where sequence between 570 and 575 and kind <> 'signal'`);
    await sql(`update imprints set created_at = created_at - interval '3 days 2 hours' where sequence = 580`);
    await sql(`delete from agents where handle in ('arrival-2', 'arrival-5')`);
    await expectTalliesMatchRows();

    // The views read the same tallies: each figure equals the rows' own count.
    const counts = await direct(new Date(NOW - 7 * DAY), new Date(NOW));
    const drift = await json('/api/drift');
    for (const kind of IMPRINT_KINDS) expect(drift.this_week.kinds[kind]).toBe(counts.get(shownKind(kind)));

    const journal = await json('/api/journal?days=10');
    for (const entry of journal.entries) {
      const from = Date.parse(`${entry.date}T00:00:00Z`);
      const day = await direct(new Date(from), new Date(from + DAY));
      for (const kind of IMPRINT_KINDS)
        expect(entry.imprints_by_kind[kind]).toBe(
          (day.get(shownKind(kind)) ?? 0) + (day.get(heldKind(kind)) ?? 0),
        );
      expect(entry.agents_arrived).toBe(day.get('agents'));
      expect(entry.receipts).toBe(day.get('receipts'));
    }

    const metabolism = await json('/api/metabolism');
    const [bodiless = missing()] = await sql<{ n: string }>(
      'select count(*) as n from imprints where body is null',
    );
    expect(metabolism.lifetime.bodies_without_text).toBe(Number(bodiless.n));
    for (const slot of metabolism.daily) {
      const from = Date.parse(slot.start);
      const day = await direct(new Date(from), new Date(from + DAY));
      const all = IMPRINT_KINDS.reduce((s, k) => s + day.get(shownKind(k))! + day.get(heldKind(k))!, 0);
      expect(slot.intake).toBe(all);
      expect(slot.evictions).toBe(day.get('evictions'));
    }

    const becoming = await json('/api/persona/becoming');
    const [agents = missing()] = await sql<{ now: string; then: string }>(
      `select count(*) as now, count(*) filter (where first_seen_at <= $1) as then from agents`,
      [new Date(NOW - 30 * DAY).toISOString()],
    );
    expect(becoming.changes.agents).toMatchObject({ before: Number(agents.then), after: Number(agents.now) });
    const [imprints = missing()] = await sql<{ then: string }>(
      'select count(*) as then from imprints where created_at <= $1',
      [new Date(NOW - 30 * DAY).toISOString()],
    );
    expect(becoming.changes.imprints_lifetime.before).toBe(Number(imprints.then));

    const season = await json('/api/season');
    const quarter = await direct(new Date('2026-10-01T00:00:00Z'), new Date(NOW + 1));
    expect(season.figures.imprints_by_kind_of_author.agents).toBe(quarter.get('imprints_by_agents'));
    expect(season.figures.new_agents).toBe(quarter.get('agents'));
    expect(season.figures.receipts).toBe(quarter.get('receipts'));
  });
});
