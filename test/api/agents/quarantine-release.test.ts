/**
 * Issue 19: an attested handle's earlier open imprints leave quarantine (INTERFACE.md: open
 * submissions are quarantined "until attested"), the release recorded with its own receipt; and
 * /api/why/imprint:<n> tells the steward's decision and the court case that reviewed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { agentImprint, continuousAgent, heldAgentImprint, triage } from '../../helpers/builders.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
let steward: TestSovereign;
beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
});
afterAll(async () => t?.close());

const { post, get } = requests(() => t.app);
const why = async (sequence: number) => (await get(`/api/why/imprint:${sequence}`)).json();

describe('attesting a handle', () => {
  it('releases its earlier open imprints from quarantine, recorded, without rewriting them', async () => {
    const first = await agentImprint(t.app, 'plover', 'An open thought before any proof.');
    const secret = first.continuity_secret!;
    await agentImprint(t.app, 'plover', 'day one', { continuity: secret });
    t.clock.advance(86_400_000);
    await agentImprint(t.app, 'plover', 'day two', { continuity: secret });
    const before = await why(first.sequence);
    expect(before.state.unattested).toBe(true);
    const refused = await post(
      '/steward/lesson',
      { title: 'Early', body: 'From an open handle.', from: [first.sequence] },
      steward.cookie,
    );
    expect(refused.statusCode).toBe(400);

    const attester = await signedInSovereign(t.app);
    const attested = await post('/standing/rotate-relay', { handle: 'plover' }, attester.cookie);
    expect(attested.statusCode, attested.body).toBe(200);

    const after = await why(first.sequence);
    expect(after.state).toMatchObject({ unattested: false, receipt_id: first.receipt_id });
    expect(after.reasons.join(' ')).toMatch(/Released from quarantine on .* when agent:plover was attested/);
    expect(after.reasons.join(' ')).not.toContain('stays out of collective learning');
    const [release] = await t.database.db.query<{ step: string; subject: string; n: string }>(
      `select r.step, r.subject, (select count(*) from quarantine_releases q where q.receipt_id = r.id)::text as n
         from receipts r where r.step = 'agents.quarantine_release'`,
    );
    expect(release).toEqual({ step: 'agents.quarantine_release', subject: 'agent:plover', n: '3' });

    const lesson = await post(
      '/steward/lesson',
      { title: 'Early', body: 'From a handle now attested.', from: [first.sequence] },
      steward.cookie,
    );
    expect(lesson.statusCode, lesson.body).toBe(200);
  });

  it('a handle attested with nothing in quarantine records no release', async () => {
    await continuousAgent(t, 'sandpiper');
    await t.database.db.query(
      `update imprints set unattested = false where author_kind = 'agent' and author_ref = 'sandpiper'`,
    );
    const attester = await signedInSovereign(t.app);
    expect((await post('/standing/rotate-relay', { handle: 'sandpiper' }, attester.cookie)).statusCode).toBe(
      200,
    );
    const rows = await t.database.db.query(
      `select 1 from receipts where step = 'agents.quarantine_release' and subject = 'agent:sandpiper'`,
    );
    expect(rows).toEqual([]);
  });
});

describe('why an imprint is in its state', () => {
  it("names the steward's decision and the court case that overturned it", async () => {
    const { sequence } = await heldAgentImprint(t.app, 'gull', 'whymark');
    const triageReceipt = await triage(t.app, steward, sequence, 'keep_held', 'private note whymark');
    const opener = await signedInSovereign(t.app, { governance: true });
    const opened = await post(
      '/sovereign/court-sign',
      { case: 'new', target: `imprint:${sequence}`, reason: 'Not spam.' },
      opener.cookie,
    );
    expect(opened.statusCode, opened.body).toBe(200);
    const caseId = opened.json().case.id as string;
    for (let i = 0; i < 3; i++) {
      const juror = await signedInSovereign(t.app, { governance: true });
      const signed = await post(
        '/sovereign/court-sign',
        { case_id: caseId, verdict: 'overturn', reason: 'Plain speech.' },
        juror.cookie,
      );
      expect(signed.statusCode, signed.body).toBe(200);
    }
    const reasons = (await why(sequence)).reasons.join('\n');
    expect(reasons).toContain(`Steward decision: sovereign:${steward.tag} kept it held`);
    expect(reasons).toContain(triageReceipt);
    expect(reasons).toMatch(new RegExp(`Court case ${caseId} overturned that decision on .*precedent`));
    expect(reasons).not.toContain('private note');
  });
});
