/**
 * The mind's changes are kept as checks are written (issue 20; migration 0077): each truth check
 * says what it changed, and the changed rows equal what a window over every check finds (each
 * claim's first check and every check whose result differs from the one before), through rounds
 * of the job's own writer and a check written by hand; /api/mind?claim= and the feed read them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';
import { recordTruthRound, TRUTH_CLAIMS, type TruthCheck } from '../../../../api/organism/mind/truth.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const sql = <T>(text: string, values: unknown[] = []) => t.database.db.query<T>(text, values);

/** A round in which the claims in `failing` do not hold. */
async function round(minute: number, failing: string[]) {
  const at = new Date(Date.UTC(2026, 10, 22, 10, minute)).toISOString();
  const checks: TruthCheck[] = TRUTH_CLAIMS.map((c) => ({
    claim: c.claim,
    statement: c.statement,
    held: !failing.includes(c.claim),
    evidence: failing.includes(c.claim) ? `minute ${minute}: broken` : `minute ${minute}: fine`,
    checked_at: at,
  }));
  await recordTruthRound(t.database.db, checks, at);
}

async function expectKept() {
  const kept = await sql<{ id: string; change: string }>(
    `select id, change from truth_checks where change is not null order by id`,
  );
  const windowed = await sql<{ id: string; change: string }>(
    `select id, case when prev is null then 'first_check' when held then 'now_holds' else 'no_longer_holds' end as change
       from (select id, held, lag(held) over (partition by claim order by checked_at, id) as prev from truth_checks) c
      where prev is null or prev <> held order by id`,
  );
  expect(kept).toEqual(windowed);
  return kept;
}

describe('truth check changes', () => {
  it('equal the window over every check, and the mind reads them', async () => {
    await round(0, []);
    await round(1, ['window_bounded']);
    await round(2, ['window_bounded', 'sequence_gap_free']);
    await round(3, ['sequence_gap_free']);
    await round(4, []);
    await round(5, []);
    await sql(
      `insert into truth_checks (claim, held, evidence, checked_at) values ('censuses_never_shrink', false, 'by hand', $1)`,
      [new Date(Date.UTC(2026, 10, 22, 10, 6)).toISOString()],
    );
    const kept = await expectKept();
    // 7 first checks; window_bounded off and on; sequence_gap_free off and on; censuses off.
    expect(kept).toHaveLength(7 + 2 + 2 + 1);
    const claim = (await get('/api/mind?claim=window_bounded')).json();
    expect(claim.changes.map((c: { kind: string }) => c.kind)).toEqual([
      'now_holds',
      'no_longer_holds',
      'first_check',
    ]);
    const feed = (await t.app.inject({ method: 'GET', url: '/mind/feed.xml' })).body;
    expect(feed).toContain('censuses_never_shrink no longer holds');
    expect(feed).toContain('sequence_gap_free holds again');
  });
});
