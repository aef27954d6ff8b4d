/**
 * The Oracle's report reads kept figures where it read the whole history (issue 20): receipts by
 * step from the receipts' tallies, the window from the imprints that keep a body and the Record's
 * counter, the week's intake from the kept days. Each figure stays what its definition, counted
 * over every row, gives: imprints over several days, one held, and more than a window of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { agentImprint, heldAgentImprint } from '../../helpers/builders.ts';
import { oracleReport } from '../../../api/treasury/oracle.ts';
import { appendImprints } from '../../../api/record/window.ts';
import { imprintDraft } from '../../helpers/imprint-draft.ts';
import { RECORD_WINDOW } from '../../../shared/record/imprint.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock('2026-11-10T09:00:00.000Z') });
});
afterAll(async () => t?.close());

const DAY = 86_400_000;
const count = async <T>(sql: string, params: unknown[] = []) => t.app.civitas.db.query<T>(sql, params);

describe('the Oracle report', () => {
  it('gives what counting every row gives, over ten days and more than a window of imprints', async () => {
    for (let day = 0; day < 10; day++) {
      // More than a window in all, so bodies have left it, and a few through the door each day.
      await t.app.civitas.db.transaction((tx) =>
        appendImprints(
          tx,
          Array.from({ length: 60 }, (_, i) =>
            imprintDraft({ body: `day ${day} bulk ${i}`, authorRef: `bulk-${day}-${i}`, at: t.clock.now() }),
          ),
        ),
      );
      await agentImprint(t.app, `oracle-day-${day}`, `A thought on day ${day}.`);
      if (day % 3 === 0) await heldAgentImprint(t.app, `oracle-held-${day}`, `oraclemark${day}`);
      t.clock.advance(DAY);
    }
    const now = t.clock.now();
    const report = await oracleReport(t.app.civitas.db, now);

    const steps = await count<{ step: string; n: number }>(
      'select step, count(*) as n from receipts group by step order by step',
    );
    expect(report.receipts_by_step).toEqual(Object.fromEntries(steps.map((r) => [r.step, Number(r.n)])));

    const [window] = await count<{ retained: number; oldest: number; newest: number }>(
      `select count(*) filter (where body is not null and not held) as retained,
              min(sequence) filter (where body is not null) as oldest, max(sequence) as newest from imprints`,
    );
    expect(Number(window!.newest)).toBeGreaterThan(RECORD_WINDOW);
    expect(report.window).toMatchObject({
      retained: Number(window!.retained),
      lifetime: Number(window!.newest),
      oldest_retained_sequence: Number(window!.oldest),
      newest_sequence: Number(window!.newest),
    });

    // The seven whole UTC days before today, and today so far.
    const since = new Date(now.getTime() - 7 * DAY).toISOString().slice(0, 10);
    const days = await count<{ day: string; n: number }>(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as n from imprints
        where not held and created_at >= $1::date group by 1 order by 1`,
      [since],
    );
    expect(days.length).toBeGreaterThanOrEqual(7);
    expect(report.window.intake_last_7_days).toEqual(
      days.map((r) => ({ day: r.day, imprints: Number(r.n) })),
    );
  });
});
