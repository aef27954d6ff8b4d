import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { fromOwnPages, jsonHeaders as json } from '../../helpers/builders.ts';
import { requests } from '../../helpers/http.ts';
import { appWithSteward, triageKit } from './helpers.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * Triage refuses before it decides: without a session (401), without the steward scope (403),
 * from another site even for a steward, malformed input (400, never a 500), unknown targets (404),
 * a body too large (413) and an off-origin return target, each changing nothing and recording no
 * receipt. The decisions themselves are triage.test.ts.
 */
let t: TestApp;
let steward: TestSovereign;
let stranger: TestSovereign;

beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  stranger = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { get, post, form, raw } = requests(() => t.app);
const { triage, receiptsFor, held: heldAgentImprint } = triageKit(() => ({ t, steward, stranger }));
describe('who may triage', () => {
  it('refuses without a session (401) and without the steward scope (403), changing nothing', async () => {
    const { sequence } = await heldAgentImprint();
    const anonymous = await triage({ target: `imprint:${sequence}`, action: 'release' }, '');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ ok: false, reason: 'identity_required' });
    const notSteward = await triage({ target: `imprint:${sequence}`, action: 'release' }, stranger.cookie);
    expect(notSteward.statusCode).toBe(403);
    expect(notSteward.json()).toMatchObject({ ok: false, reason: 'scope_required', scope: 'steward:write' });
    const [row = missing()] = await t.database.db.query<{ held: boolean }>(
      'select held from imprints where sequence = $1',
      [sequence],
    );
    expect(row.held).toBe(true);
    expect(await receiptsFor(sequence)).toEqual([]);
  });

  it('refuses steward surfaces to strangers and sends an anonymous browser to sign in', async () => {
    for (const url of ['/steward/held', '/steward/whispers', '/operator', '/dashboard']) {
      expect((await get(url)).statusCode).toBe(401);
      const forbidden = await get(url, stranger);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.body).not.toContain('heldmark');
      const browser = await raw(url, { accept: 'text/html' });
      expect(browser.statusCode).toBe(303);
      expect(browser.headers.location).toBe(`/return?return_to=${encodeURIComponent(url)}`);
    }
    const lesson = await post('/steward/lesson', { title: 'x', body: 'y', from: [1] }, stranger);
    expect(lesson.statusCode).toBe(403);
  });

  it('refuses a cross-site request even from a steward', async () => {
    const { sequence } = await heldAgentImprint();
    const res = await triage({ target: `imprint:${sequence}`, action: 'release' }, steward.cookie, {
      origin: 'https://evil.example',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ reason: 'cross_origin_refused' });
    const site = await triage({ target: `imprint:${sequence}`, action: 'release' }, steward.cookie, {
      'sec-fetch-site': 'cross-site',
    });
    expect(site.statusCode).toBe(403);
    expect(await receiptsFor(sequence)).toEqual([]);
  });
});

describe('bad input', () => {
  it('answers 400 for malformed targets, actions and notes, 404 for unknown targets, never a 500', async () => {
    const { sequence } = await heldAgentImprint();
    for (const payload of [
      {},
      { target: '', action: 'release' },
      { target: `${sequence}`, action: 'release' },
      { target: 'imprint:abc', action: 'release' },
      { target: 'imprint:-3', action: 'release' },
      { target: 'imprint:0', action: 'release' },
      { target: 'rep_short', action: 'release' },
      { target: `imprint:${sequence}`, action: 'delete' },
      { target: `imprint:${sequence}`, action: ['release'] },
      { target: ['imprint:1', 'imprint:2'], action: 'release' },
      { target: `imprint:${sequence}`, action: 'release', note: 'n'.repeat(2001) },
      { target: 'x'.repeat(10_000), action: 'release' },
    ]) {
      const res = await triage(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
    const unknown = await triage({ target: 'imprint:99999999', action: 'release' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ reason: 'not_found' });
    const unknownReport = await triage({ target: 'rep_01JAAAAAAAAAAAAAAAAAAAAAAA', action: 'dismiss' });
    expect(unknownReport.statusCode).toBe(404);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/sovereign/triage',
      headers: { ...json(steward.cookie), 'content-type': 'application/json' },
      payload: JSON.stringify({ target: `imprint:${sequence}`, action: 'release', note: 'x'.repeat(70_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(await receiptsFor(sequence)).toEqual([]);
  });

  it('refuses an off-origin return_to before deciding anything', async () => {
    const { sequence } = await heldAgentImprint();
    for (const target of [
      'https://evil.example/x',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const res = await form(
        '/sovereign/triage',
        `target=imprint%3A${sequence}&action=release&return_to=${encodeURIComponent(target)}`,
        fromOwnPages(steward),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'off_origin_target' });
    }
    const [row = missing()] = await t.database.db.query<{ held: boolean }>(
      'select held from imprints where sequence = $1',
      [sequence],
    );
    expect(row.held).toBe(true);
    expect(await receiptsFor(sequence)).toEqual([]);
  });
});
