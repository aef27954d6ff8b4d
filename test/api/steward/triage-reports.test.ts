/** Reports filed through /imprint/report reach the steward queue and are dismissed as unfounded. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { fromOwnPages, sovereignImprint } from '../../helpers/builders.ts';
import { requests } from '../../helpers/http.ts';
import { appWithSteward, triageKit } from './helpers.ts';

let t: TestApp;
let steward: TestSovereign;
let stranger: TestSovereign;
const RUN = randomBytes(4).toString('hex');
let counter = 0;

beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  stranger = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { get, post, form } = requests(() => t.app);
async function publicImprint(who: TestSovereign): Promise<number> {
  const imprinted = await sovereignImprint(t.app, who, `A plain public thought ${RUN} ${++counter}`);
  expect(imprinted).toMatchObject({ held: false });
  return imprinted.sequence;
}

const {
  triage,
  publicText,
  receiptsFor,
  held: heldAgentImprint,
} = triageKit(() => ({
  t,
  steward,
  stranger,
}));

describe('reports', () => {
  it('brings reports filed through /imprint/report into the queue and dismisses them as unfounded', async () => {
    const sequence = await publicImprint(stranger);
    const detail = `reportdetail${RUN}`;
    const filed = await post('/imprint/report', { sequence, reason: 'abuse', detail });
    expect(filed.statusCode).toBe(200);
    const reportId = filed.json().report_id;
    const queue = (await get('/steward/held', steward)).json();
    const report = queue.reports.find((r: { id: string }) => r.id === reportId);
    expect(report).toMatchObject({
      target: reportId,
      sequence,
      reason: 'abuse',
      detail,
      reporter: 'anonymous',
      imprint: { held: false, body_retained: true },
    });
    expect(queue.counts.open_reports).toBeGreaterThanOrEqual(1);

    // keep_held is for held imprints: a public imprint's report is dismissed, or stays open.
    const keep = await triage({ target: reportId, action: 'keep_held' });
    expect(keep.statusCode).toBe(409);
    const release = await triage({ target: reportId, action: 'release' });
    expect(release.statusCode).toBe(409);

    const res = await triage({ target: reportId.toLowerCase(), action: 'dismiss', note: `unfounded${RUN}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      action: 'dismiss',
      target: reportId,
      reports_closed: [reportId],
      imprint: { held: false, publicly_visible: true },
    });
    const [row] = await t.database.db.query<{ status: string; closed_by_action: string }>(
      'select status, closed_by_action from imprint_reports where id = $1',
      [reportId],
    );
    expect(row).toMatchObject({ status: 'dismissed', closed_by_action: 'dismiss' });
    expect((await receiptsFor(sequence)).map((r) => r.step)).toEqual(['steward.triage.dismiss']);
    const after = (await get('/steward/held', steward)).json();
    expect(after.reports.some((r: { id: string }) => r.id === reportId)).toBe(false);
    const again = await triage({ target: reportId, action: 'dismiss' });
    expect(again.statusCode).toBe(409);
    expect((await publicText()).includes(`unfounded${RUN}`)).toBe(false);
    // Dismissing an imprint with no open report is a conflict.
    expect((await triage({ target: `imprint:${sequence}`, action: 'dismiss' })).statusCode).toBe(409);
  });

  it('closes every open report on an imprint it decides, through the form with a 303 to return_to', async () => {
    const { sequence } = await heldAgentImprint();
    const ids: string[] = [];
    for (const reason of ['spam', 'other']) {
      const filed = await post('/imprint/report', { sequence, reason }, stranger);
      ids.push(filed.json().report_id);
    }
    const res = await form(
      '/sovereign/triage',
      `target=imprint%3A${sequence}&action=keep_held&note=&return_to=%2Foperator`,
      fromOwnPages(steward),
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(
      new RegExp(`^/operator\\?triaged=keep_held&target=imprint%3A${sequence}&receipt=rcpt_\\w+$`),
    );
    expect(res.headers['cache-control']).toContain('no-store');
    const rows = await t.database.db.query<{ status: string }>(
      'select status from imprint_reports where id = any($1::text[])',
      [ids],
    );
    expect(rows.map((r) => r.status)).toEqual(['kept_held', 'kept_held']);
    const byDefault = await form(
      '/sovereign/triage',
      `target=imprint%3A${sequence}&action=release`,
      fromOwnPages(steward),
    );
    expect(byDefault.statusCode).toBe(303);
    expect(byDefault.headers.location).toMatch(
      new RegExp(`^/steward/held\\?triaged=release&target=imprint%3A${sequence}&receipt=rcpt_\\w+$`),
    );
  });
});
