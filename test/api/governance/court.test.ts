import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { heldAgentImprint, triage } from '../../helpers/builders.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { expectDocumented } from '../../helpers/documented.ts';
import { requests } from '../../helpers/http.ts';
import { at } from '../../helpers/elements.ts';

let t: TestApp;
let steward: TestSovereign;
let opener: TestSovereign;
let jurors: TestSovereign[];
const RUN = randomBytes(4).toString('hex');
let counter = 0;
const NOTE = `private-steward-note-${RUN}`;

beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  opener = await signedInSovereign(t.app, { governance: true });
  jurors = [];
  for (let i = 0; i < 5; i++) jurors.push(await signedInSovereign(t.app, { governance: true }));
});
afterAll(async () => t?.close());

const { get, post } = requests(() => t.app);
const sign = (cookie: string, payload: Record<string, unknown>) =>
  post('/sovereign/court-sign', payload, cookie);

/** A held imprint (known spam pattern) a steward kept held, with a private note. */
async function triagedImprint(
  action: 'keep_held' | 'release' = 'keep_held',
): Promise<{ sequence: number; marker: string; triageReceipt: string }> {
  const marker = `courtmark${RUN}n${++counter}`;
  const { sequence } = await heldAgentImprint(t.app, `court-${RUN}-${counter}`, marker);
  return { sequence, marker, triageReceipt: await triage(t.app, steward, sequence, action, NOTE) };
}

async function receiptOf(id: string) {
  const [row] = await t.app.civitas.db.query<{ step: string; subject: string }>(
    'select step, subject from receipts where id = $1',
    [id],
  );
  return row;
}

async function openCase(sequence: number, who = opener) {
  const res = await sign(who.cookie, {
    case: 'new',
    target: `imprint:${sequence}`,
    reason: 'The hold looks wrong to me.',
  });
  expect(res.statusCode).toBe(200);
  return res.json().case.id as string;
}

describe('the court', () => {
  it('starts empty: no verdicts, no dissent, empty feeds', async () => {
    expect((await get('/api/verdicts')).json()).toMatchObject({
      ok: true,
      schema: 'civitas.verdicts.v1',
      cases: [],
      counts: { cases: 0, final: 0 },
    });
    expect((await get('/api/dissent')).json()).toMatchObject({
      ok: true,
      verdicts: [],
      counts: { final_verdicts: 0 },
    });
    const feed = await get('/verdicts.xml');
    expect(feed.headers['content-type']).toContain('application/atom+xml');
    expect(feed.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(feed.body).not.toContain('<entry>');
  });

  it('opens a case from a triage decision, takes 3 concurring jurors, sets a precedent, lists dissent and reversals', async () => {
    const { sequence, marker, triageReceipt } = await triagedImprint('keep_held');
    const opened = await sign(opener.cookie, {
      case: 'new',
      target: `imprint:${sequence}`,
      reason: 'The hold looks wrong to me.',
    });
    expect(opened.statusCode).toBe(200);
    const o = opened.json();
    expect(o).toMatchObject({
      ok: true,
      state: 'open',
      case: {
        target: `imprint:${sequence}`,
        state: 'open',
        outcome: null,
        disputed: { action: 'keep_held', receipt_id: triageReceipt },
        opened_by: { ref: `sovereign:${opener.tag}` },
        signatures: { uphold: 0, overturn: 0, required: 3 },
      },
    });
    const id = o.case.id as string;
    expect(id).toMatch(/^case_[0-9A-Z]{26}$/);
    expect(await receiptOf(o.receipt_id)).toEqual({ step: 'governance.court.open', subject: `case:${id}` });

    // The same decision cannot be disputed twice.
    const dup = await sign(at(jurors, 0).cookie, { case: 'new', target: `imprint:${sequence}` });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ rule: 'already_disputed', case_id: id });

    // The opener is not a juror.
    const self = await sign(opener.cookie, { case_id: id, verdict: 'uphold', reason: 'mine' });
    expect(self.statusCode).toBe(409);
    expect(self.json().rule).toBe('opener_cannot_sign');

    // Not final before 3 concurring: overturn, uphold, overturn, uphold.
    const s1 = await sign(at(jurors, 0).cookie, {
      case_id: id,
      verdict: 'overturn',
      reason: 'It is not spam, only enthusiastic.',
    });
    expect(s1.statusCode).toBe(200);
    expect(s1.json()).toMatchObject({
      state: 'open',
      verdict: null,
      case: { signatures: { overturn: 1, uphold: 0 } },
    });
    expect(await receiptOf(s1.json().receipt_id)).toEqual({
      step: 'governance.court.sign.overturn',
      subject: `case:${id}`,
    });
    const again = await sign(at(jurors, 0).cookie, {
      case_id: id,
      verdict: 'uphold',
      reason: 'changed my mind',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().rule).toBe('already_signed');
    expect(
      (
        await sign(at(jurors, 1).cookie, {
          case_id: id,
          verdict: 'uphold',
          reason: 'The gate was right to hold it.',
        })
      ).json().state,
    ).toBe('open');
    expect(
      (await sign(at(jurors, 2).cookie, { case_id: id, verdict: 'overturn', reason: 'Plain speech.' })).json()
        .state,
    ).toBe('open');
    // Not final yet: /verify/court answers 404 with the opening receipt in the hint.
    const early = await get(`/verify/court/${id}`);
    expect(early.statusCode).toBe(404);
    expect(early.json()).toMatchObject({ state: 'open' });
    expect((await get('/api/verdicts')).json().counts).toMatchObject({ cases: 1, open: 1, final: 0 });
    const final = await sign(at(jurors, 3).cookie, {
      case_id: id.toLowerCase(),
      verdict: 'overturn',
      reason: 'The steward erred.',
    });
    expect(final.statusCode).toBe(200);
    const f = final.json();
    expect(f).toMatchObject({
      state: 'final',
      outcome: 'overturn',
      case: {
        state: 'final',
        outcome: 'overturn',
        signatures: { overturn: 3, uphold: 1 },
        precedent_id: 'precedent-1',
      },
      verdict: { final: true, precedent: { id: 'precedent-1' } },
    });
    expect(await receiptOf(f.verdict.receipt_id)).toEqual({
      step: 'governance.court.verdict.overturn',
      subject: `case:${id}`,
    });
    expect(await receiptOf(f.verdict.precedent.receipt_id)).toEqual({
      step: 'governance.precedent',
      subject: 'precedent:precedent-1',
    });
    expect(f.case.dissent).toEqual([
      expect.objectContaining({
        by: expect.objectContaining({ ref: `sovereign:${at(jurors, 1).tag}` }),
        verdict: 'uphold',
      }),
    ]);

    // Closed after final.
    const late = await sign(at(jurors, 4).cookie, { case_id: id, verdict: 'uphold', reason: 'late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().rule).toBe('case_closed');

    // Precedent.
    const precedent = await get('/api/court/precedent/precedent-1');
    expect(precedent.statusCode).toBe(200);
    expect(precedent.json()).toMatchObject({
      ok: true,
      id: 'precedent-1',
      number: 1,
      outcome: 'overturn',
      disputed_action: 'keep_held',
      case: { id },
    });
    expect(precedent.json().holding).toContain('overturned');
    expect(precedent.json().majority).toHaveLength(3);
    expect(precedent.json().dissent).toHaveLength(1);
    expectDocumented('GET /api/court/precedent/{id}', precedent.json());
    expect((await get('/api/court/precedent/precedent-2')).statusCode).toBe(404);
    expect((await get('/api/court/precedent/nope')).statusCode).toBe(400);

    // Verify the verdict's receipt with an inclusion proof.
    const verify = await get(`/verify/court/${id}`);
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toMatchObject({
      ok: true,
      receipt: { id: f.verdict.receipt_id, step: 'governance.court.verdict.overturn' },
      court: { id, outcome: 'overturn' },
    });
    expect(verify.json().proof.inclusion_path).toBeInstanceOf(Array);
    expect(verify.json().verification.ok).toBe(true);
    expect(verify.json().receipt.change_status).toMatchObject({ status: 'overturned' });
    expect((await get('/verify/court/case_01JD0000000000000000000000')).statusCode).toBe(404);

    // Verdicts list, dissent, feeds.
    const verdicts = (await get('/api/verdicts', at(jurors, 4).cookie)).json();
    expect(verdicts.counts).toEqual({ cases: 1, open: 0, final: 1, upheld: 0, overturned: 1, precedents: 1 });
    expect(verdicts.cases[0].viewer).toEqual({ is_opener: false, signed: null, can_sign: false });
    const dissent = (await get('/api/dissent')).json();
    expect(dissent.counts).toEqual({ final_verdicts: 1, with_dissent: 1, dissents: 1 });
    expect(dissent.verdicts[0]).toMatchObject({
      case_id: id,
      outcome: 'overturn',
      dissents: [
        {
          verdict: 'uphold',
          reason: 'The gate was right to hold it.',
          by: { ref: `sovereign:${at(jurors, 1).tag}` },
        },
      ],
    });
    const vfeed = await get('/verdicts.xml');
    expect(vfeed.headers['content-type']).toContain('application/atom+xml');
    expect(vfeed.body).toMatch(/<entry>[\s\S]*Overturned[\s\S]*<\/entry>/);
    expect(vfeed.body).toContain(`/verify/court/${id}`);
    const rfeed = await get('/reversals.xml');
    expect(rfeed.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(rfeed.body).toContain(`reversals.xml#${id}`);

    // Never: the steward's note, the held body, raw ids.
    for (const url of [
      '/api/verdicts',
      '/api/dissent',
      '/verdicts.xml',
      '/reversals.xml',
      `/verify/court/${id}`,
      '/api/court/precedent/precedent-1',
      '/verdicts',
    ]) {
      const res = await get(url, at(jurors, 4).cookie);
      expect(res.body, url).not.toContain(NOTE);
      expect(res.body, url).not.toContain(marker);
      for (const who of [opener, ...jurors, steward]) expect(res.body, url).not.toContain(who.id);
    }
  });

  it('upheld verdicts are final but are not reversals; ratified amendments are', async () => {
    const { sequence } = await triagedImprint('release');
    const id = await openCase(sequence);
    for (const j of jurors.slice(0, 3))
      expect((await sign(j.cookie, { case_id: id, verdict: 'uphold', reason: 'Sound.' })).statusCode).toBe(
        200,
      );
    const v = (await get('/api/verdicts')).json();
    expect(v.counts).toMatchObject({ cases: 2, final: 2, upheld: 1, overturned: 1, precedents: 2 });
    expect((await get('/api/court/precedent/precedent-2')).json()).toMatchObject({
      outcome: 'uphold',
      dissent: [],
    });
    expect((await get('/reversals.xml')).body).not.toContain(`reversals.xml#${id}`);
    expect((await get('/api/dissent')).json().counts).toMatchObject({ final_verdicts: 2, with_dissent: 1 });

    // A ratified article that amends an axiom appears among reversals.
    const proposer = at(jurors, 4);
    const p = await post(
      '/api/constitution/propose',
      {
        title: 'Holds are reviewed weekly',
        text: 'Every held imprint is reviewed within a week.',
        amends: 'axiom-3',
      },
      proposer.cookie,
    );
    const pid = p.json().proposal.id;
    for (const c of jurors.slice(0, 3))
      expect((await post('/api/constitution/cosign', { proposal: pid }, c.cookie)).statusCode).toBe(200);
    for (const r of [opener, at(jurors, 0)])
      expect((await post('/api/constitution/ratify', { proposal: pid }, r.cookie)).statusCode).toBe(200);
    const reversals = (await get('/reversals.xml')).body;
    expect(reversals).toContain('Amended: axiom-3 by article-1');
  });
});
