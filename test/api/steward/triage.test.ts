import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { heldAgentImprint as agentSpam, jsonHeaders as json } from '../../helpers/builders.ts';
import { appWithSteward, triageKit } from './helpers.ts';
import { missing } from '../../helpers/elements.ts';

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
  const { sequence } = await agentSpam(t.app, `spam-${RUN}-${counter}`, marker);
  return { sequence, marker };
}

/** A held imprint from a signed-in sovereign (attested, held by the gate). */
async function heldAttestedImprint(who: TestSovereign): Promise<{ sequence: number; marker: string }> {
  const marker = `heldattested${RUN}n${++counter}`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/quick-imprint',
    headers: json(who.cookie),
    payload: { body: `${marker} casino bonus tonight` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ held: true, unattested: false });
  return { sequence: res.json().sequence, marker };
}

const { triage, publicText, receiptsFor } = triageKit(() => ({ t, steward, stranger }));

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
      expect((await t.app.inject({ method: 'GET', url, headers: json() })).statusCode).toBe(401);
      const forbidden = await t.app.inject({ method: 'GET', url, headers: json(stranger.cookie) });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.body).not.toContain('heldmark');
      const browser = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(browser.statusCode).toBe(303);
      expect(browser.headers.location).toBe(`/return?return_to=${encodeURIComponent(url)}`);
    }
    const lesson = await t.app.inject({
      method: 'POST',
      url: '/steward/lesson',
      headers: json(stranger.cookie),
      payload: { title: 'x', body: 'y', from: [1] },
    });
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
      const res = await t.app.inject({
        method: 'POST',
        url: '/sovereign/triage',
        headers: form(steward.cookie),
        payload: `target=imprint%3A${sequence}&action=release&return_to=${encodeURIComponent(target)}`,
      });
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

describe('keep_held', () => {
  it('keeps the imprint held, records a receipt, stores the note privately, and keeps body and note off every public surface', async () => {
    const { sequence, marker } = await heldAgentImprint();
    const note = `privatenote${RUN}keep`;
    const queue = await t.app.inject({ method: 'GET', url: '/steward/held', headers: json(steward.cookie) });
    expect(queue.statusCode).toBe(200);
    expect(queue.headers['cache-control']).toBe('private, no-store');
    expect(queue.headers['x-robots-tag']).toContain('noindex');
    const entry = queue.json().held.find((h: { sequence: number }) => h.sequence === sequence);
    expect(entry).toMatchObject({
      target: `imprint:${sequence}`,
      body_retained: true,
      unattested: true,
      rule: 'bad_pattern',
    });
    expect(entry.body).toContain(marker);
    expect(JSON.stringify(queue.json())).not.toMatch(/author_ref|reporter_ref/);

    const res = await triage({ target: `imprint:${sequence}`, action: 'keep_held', note });
    expect(res.statusCode).toBe(200);
    const result = res.json();
    expect(result).toMatchObject({
      ok: true,
      action: 'keep_held',
      target: `imprint:${sequence}`,
      imprint: { held: true, publicly_visible: false },
      note_recorded: true,
    });
    expect(res.body).not.toContain(note);
    expect(result.receipt_id).toMatch(/^rcpt_/);
    expect(await receiptsFor(sequence)).toEqual([
      { id: result.receipt_id, step: 'steward.triage.keep_held' },
    ]);

    const receipt = await t.app.inject({
      method: 'GET',
      url: `/api/receipt/${result.receipt_id}`,
      headers: json(),
    });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.body).toContain('steward.triage.keep_held');
    const text = await publicText([
      `/api/receipt/${result.receipt_id}`,
      `/verify/${result.receipt_id}`,
      `/receipt/${result.receipt_id}/feed.xml`,
    ]);
    expect(text.includes(marker)).toBe(false);
    expect(text.includes(note)).toBe(false);
    const search = await t.app.inject({ method: 'GET', url: `/search?q=${marker}`, headers: json() });
    expect(search.json()).toMatchObject({ total: 0, results: [] });

    // It left the untriaged queue; the whisper archive holds the note for stewards.
    const after = (
      await t.app.inject({ method: 'GET', url: '/steward/held', headers: json(steward.cookie) })
    ).json();
    expect(after.held.some((h: { sequence: number }) => h.sequence === sequence)).toBe(false);
    expect(after.counts.kept_held).toBeGreaterThanOrEqual(1);
    const whispers = await t.app.inject({
      method: 'GET',
      url: '/steward/whispers',
      headers: json(steward.cookie),
    });
    expect(whispers.headers['cache-control']).toBe('private, no-store');
    expect(whispers.json().whispers[0]).toMatchObject({
      kind: 'steward.triage.keep_held',
      subject: `imprint:${sequence}`,
      note,
      steward: `sovereign:${steward.tag}`,
      receipt_id: result.receipt_id,
    });
    expect(whispers.body).not.toContain(steward.id);

    // Deciding it again is a conflict, not a second receipt.
    const again = await triage({ target: `imprint:${sequence}`, action: 'keep_held' });
    expect(again.statusCode).toBe(409);
    expect(await receiptsFor(sequence)).toHaveLength(1);
  });
});

describe('release', () => {
  it('makes a held imprint public, keeping its unattested flag, once', async () => {
    const { sequence, marker } = await heldAgentImprint();
    const before = await t.app.inject({ method: 'GET', url: '/imprint', headers: json() });
    expect(before.body).not.toContain(marker);
    const res = await triage({ target: `imprint:${sequence}`, action: 'release', note: `why${RUN}release` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      action: 'release',
      imprint: { sequence, held: false, unattested: true, body_retained: true, publicly_visible: true },
    });
    const record = (await t.app.inject({ method: 'GET', url: '/imprint', headers: json() })).json();
    const shown = record.imprints.find((i: { sequence: number }) => i.sequence === sequence);
    expect(shown).toMatchObject({ unattested: true, retained: true });
    expect(shown.body).toContain(marker);
    expect(
      (await t.app.inject({ method: 'GET', url: '/imprint/feed.json', headers: json() })).body,
    ).toContain(marker);
    expect((await publicText()).includes(`why${RUN}release`)).toBe(false);
    const again = await triage({ target: `imprint:${sequence}`, action: 'release' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ reason: 'conflict' });
    expect((await receiptsFor(sequence)).map((r) => r.step)).toEqual(['steward.triage.release']);
  });

  it('keeps an attested imprint attested when released', async () => {
    const { sequence } = await heldAttestedImprint(stranger);
    const res = await triage({ target: `imprint:${sequence}`, action: 'release' });
    expect(res.json()).toMatchObject({ imprint: { held: false, unattested: false, publicly_visible: true } });
  });

  it('records the release of a body that already left the window, and says nothing became visible', async () => {
    const { sequence, marker } = await heldAgentImprint();
    // Leaving the window is the Record's own step (appendImprint); here the eviction is simulated in the store.
    await t.database.db.query('update imprints set body = null where sequence = $1', [sequence]);
    const res = await triage({ target: `imprint:${sequence}`, action: 'release' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      imprint: { held: false, body_retained: false, publicly_visible: false },
    });
    expect(res.json().outcome).toContain('left the 500-row window');
    expect(await receiptsFor(sequence)).toHaveLength(1);
    const shown = (await t.app.inject({ method: 'GET', url: '/imprint', headers: json() }))
      .json()
      .imprints.find((i: { sequence: number }) => i.sequence === sequence);
    expect(shown).toMatchObject({ body: null, retained: false });
    expect(JSON.stringify(shown)).not.toContain(marker);
  });

  it('takes effect exactly once under concurrent decisions', async () => {
    const { sequence } = await heldAgentImprint();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        triage({ target: `imprint:${sequence}`, action: i % 2 ? 'release' : 'keep_held' }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const receipts = await receiptsFor(sequence);
    const releases = receipts.filter((r) => r.step === 'steward.triage.release').length;
    const keeps = receipts.filter((r) => r.step === 'steward.triage.keep_held').length;
    expect(releases).toBeLessThanOrEqual(1);
    expect(keeps).toBeLessThanOrEqual(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(receipts.length);
    // A release after a keep is allowed (a steward may change their mind); nothing after a release.
    const [row = missing()] = await t.database.db.query<{ held: boolean }>(
      'select held from imprints where sequence = $1',
      [sequence],
    );
    expect(row.held).toBe(releases === 0);
  });
});

describe('operator surfaces stay out of the route description', () => {
  it('never lists /operator, /dashboard, /steward/held or /steward/whispers in /openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/operator', '/dashboard', '/steward/held', '/steward/whispers'])
      expect(doc.paths[path]).toBeUndefined();
    expect(doc.paths['/sovereign/triage']).toBeDefined();
  });
});
