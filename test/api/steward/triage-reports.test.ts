/** Reports filed through /imprint/report reach the steward queue and are dismissed as unfounded. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { jsonHeaders as json } from '../../helpers/builders.ts';
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

const form = (cookie: string) => ({
  cookie,
  origin: TEST_ORIGIN,
  'sec-fetch-site': 'same-origin',
  'content-type': 'application/x-www-form-urlencoded',
});

/** A held imprint through the real gate (a known spam pattern), from an open agent handle (unattested). */
async function heldAgentImprint(): Promise<{ sequence: number; marker: string }> {
  const marker = `heldmark${RUN}n${++counter}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: `spam-${RUN}-${counter}`, body: `${marker} free money for everyone` },
  });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.held).toBe(true);
  return { sequence: body.sequence, marker };
}

async function publicImprint(who: TestSovereign): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/quick-imprint',
    headers: json(who.cookie),
    payload: { body: `A plain public thought ${RUN} ${++counter}` },
  });
  expect(res.json()).toMatchObject({ held: false });
  return res.json().sequence;
}

const { triage, publicText, receiptsFor } = triageKit(() => ({ t, steward, stranger }));

describe('reports', () => {
  it('brings reports filed through /imprint/report into the queue and dismisses them as unfounded', async () => {
    const sequence = await publicImprint(stranger);
    const detail = `reportdetail${RUN}`;
    const filed = await t.app.inject({
      method: 'POST',
      url: '/imprint/report',
      headers: json(),
      payload: { sequence, reason: 'abuse', detail },
    });
    expect(filed.statusCode).toBe(200);
    const reportId = filed.json().report_id;
    const queue = (
      await t.app.inject({ method: 'GET', url: '/steward/held', headers: json(steward.cookie) })
    ).json();
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
    const after = (
      await t.app.inject({ method: 'GET', url: '/steward/held', headers: json(steward.cookie) })
    ).json();
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
      const filed = await t.app.inject({
        method: 'POST',
        url: '/imprint/report',
        headers: json(stranger.cookie),
        payload: { sequence, reason },
      });
      ids.push(filed.json().report_id);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/sovereign/triage',
      headers: form(steward.cookie),
      payload: `target=imprint%3A${sequence}&action=keep_held&note=&return_to=%2Foperator`,
    });
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
    const byDefault = await t.app.inject({
      method: 'POST',
      url: '/sovereign/triage',
      headers: form(steward.cookie),
      payload: `target=imprint%3A${sequence}&action=release`,
    });
    expect(byDefault.statusCode).toBe(303);
    expect(byDefault.headers.location).toMatch(
      new RegExp(`^/steward/held\\?triaged=release&target=imprint%3A${sequence}&receipt=rcpt_\\w+$`),
    );
  });
});
