/**
 * The court's one door (POST /sovereign/court-sign) beyond its first cases (court.test.ts): its
 * refusals, concurrent signatures on one case, and a browser form's 303s.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { heldAgentImprint, triage } from '../../helpers/builders.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { requests } from '../../helpers/http.ts';
import { at, missing } from '../../helpers/elements.ts';

let t: TestApp;
let steward: TestSovereign;
let opener: TestSovereign;
let jurors: TestSovereign[];
let plain: TestSovereign;
const RUN = randomBytes(4).toString('hex');
let counter = 0;
const NOTE = `private-steward-note-${RUN}`;

beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  opener = await signedInSovereign(t.app, { governance: true });
  jurors = [];
  for (let i = 0; i < 5; i++) jurors.push(await signedInSovereign(t.app, { governance: true }));
  plain = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { post } = requests(() => t.app);
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
  it('refuses: untriaged imprints, unknown cases, malformed bodies, missing scope', async () => {
    // An imprint no steward triaged cannot be disputed.
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: `plain-${RUN}`, body: 'a quiet thought' },
    });
    const untriaged = await sign(opener.cookie, { case: 'new', target: `imprint:${fresh.json().sequence}` });
    expect(untriaged.statusCode).toBe(409);
    expect(untriaged.json().rule).toBe('not_triaged');
    expect((await sign(opener.cookie, { case: 'new', target: 'imprint:999999999' })).statusCode).toBe(404);
    expect(
      (
        await sign(at(jurors, 0).cookie, {
          case_id: 'case_01JD0000000000000000000000',
          verdict: 'uphold',
          reason: 'x',
        })
      ).statusCode,
    ).toBe(404);

    for (const bad of [
      {},
      { case: 'old' },
      { case: 'new' },
      { case: 'new', target: 'rep_01JD0000000000000000000000' },
      { case_id: 'nope', verdict: 'uphold', reason: 'x' },
      { case_id: 'case_01JD0000000000000000000000', verdict: 'acquit', reason: 'x' },
      { case_id: 'case_01JD0000000000000000000000', verdict: 'uphold' },
      { case_id: 'case_01JD0000000000000000000000', verdict: 'uphold', reason: 'x'.repeat(2001) },
    ]) {
      const res = await sign(at(jurors, 0).cookie, bad);
      expect(res.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
    const missing = await sign(at(jurors, 0).cookie, { case_id: 'case_01JD0000000000000000000000' });
    expect(
      missing
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(['reason', 'verdict']);

    expect((await post('/sovereign/court-sign', { case: 'new', target: 'imprint:1' })).statusCode).toBe(401);
    const noScope = await post('/sovereign/court-sign', { case: 'new', target: 'imprint:1' }, plain.cookie);
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json()).toMatchObject({ reason: 'scope_required', scope: 'governance:write' });
  });

  it('concurrent signatures: the verdict becomes final once, with exactly one precedent', async () => {
    const { sequence } = await triagedImprint('keep_held');
    const id = await openCase(sequence);
    const results = await Promise.all(
      jurors.map((j) => sign(j.cookie, { case_id: id, verdict: 'overturn', reason: 'Concurrent.' })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 409, 409]);
    const [{ n } = missing()] = await t.app.civitas.db.query<{ n: string }>(
      'select count(*) as n from governance_precedents where case_id = $1',
      [id],
    );
    expect(Number(n)).toBe(1);
    const [{ s } = missing()] = await t.app.civitas.db.query<{ s: string }>(
      'select count(*) as s from governance_court_signatures where case_id = $1',
      [id],
    );
    expect(Number(s)).toBe(3);
  });

  it('a browser form opens a case and signs, answering 303', async () => {
    const { sequence } = await triagedImprint('keep_held');
    const headers = {
      cookie: opener.cookie,
      origin: TEST_ORIGIN,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    };
    const res = await t.app.inject({
      method: 'POST',
      url: '/sovereign/court-sign',
      headers,
      payload: `case=new&target=imprint%3A${sequence}&reason=`,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/verdicts\?opened=case_[0-9A-Z]{26}$/);
    const id = new URL(res.headers.location as string, TEST_ORIGIN).searchParams.get('opened');
    const signed = await t.app.inject({
      method: 'POST',
      url: '/sovereign/court-sign',
      headers: { ...headers, cookie: at(jurors, 0).cookie },
      payload: `case_id=${id}&verdict=uphold&reason=Fine&return_to=%2Fdissent`,
    });
    expect(signed.statusCode).toBe(303);
    expect(signed.headers.location).toBe(`/dissent?signed=${id}`);
    const off = await t.app.inject({
      method: 'POST',
      url: '/sovereign/court-sign',
      headers: { ...headers, cookie: at(jurors, 1).cookie },
      payload: `case_id=${id}&verdict=uphold&reason=Fine&return_to=https%3A%2F%2Fevil.example`,
    });
    expect(off.statusCode).toBe(400);
  });
});
