import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { sovereignImprint } from '../../helpers/builders.ts';
import { requests } from '../../helpers/http.ts';
import { appWithSteward, triageKit } from './helpers.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * A steward's triage decisions on held imprints: keep_held (a receipt, the note kept privately,
 * body and note off every public surface) and release (public once, attested or not, even when the
 * body already left the window, exactly once under concurrency); the operator's surfaces stay out
 * of the route description. What triage refuses is triage-refusals.test.ts.
 */
let t: TestApp;
let steward: TestSovereign;
let stranger: TestSovereign;
const RUN = randomBytes(4).toString('hex');

beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  stranger = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { get, raw } = requests(() => t.app);
const {
  triage,
  publicText,
  receiptsFor,
  held: heldAgentImprint,
} = triageKit(() => ({ t, steward, stranger }));

/** A held imprint from a signed-in sovereign (attested, held by the gate). */
async function heldAttestedImprint(who: TestSovereign): Promise<{ sequence: number }> {
  const imprinted = await sovereignImprint(t.app, who, `heldattested${RUN} casino bonus tonight`);
  expect(imprinted).toMatchObject({ held: true, unattested: false });
  return imprinted;
}

describe('keep_held', () => {
  it('keeps the imprint held, records a receipt, stores the note privately, and keeps body and note off every public surface', async () => {
    const { sequence, marker } = await heldAgentImprint();
    const note = `privatenote${RUN}keep`;
    const queue = await get('/steward/held', steward);
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

    const receipt = await get(`/api/receipt/${result.receipt_id}`);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.body).toContain('steward.triage.keep_held');
    const text = await publicText([
      `/api/receipt/${result.receipt_id}`,
      `/verify/${result.receipt_id}`,
      `/receipt/${result.receipt_id}/feed.xml`,
    ]);
    expect(text.includes(marker)).toBe(false);
    expect(text.includes(note)).toBe(false);
    const search = await get(`/search?q=${marker}`);
    expect(search.json()).toMatchObject({ total: 0, results: [] });

    // It left the untriaged queue; the whisper archive holds the note for stewards.
    const after = (await get('/steward/held', steward)).json();
    expect(after.held.some((h: { sequence: number }) => h.sequence === sequence)).toBe(false);
    expect(after.counts.kept_held).toBeGreaterThanOrEqual(1);
    const whispers = await get('/steward/whispers', steward);
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
    const before = await get('/imprint');
    expect(before.body).not.toContain(marker);
    const res = await triage({ target: `imprint:${sequence}`, action: 'release', note: `why${RUN}release` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      action: 'release',
      imprint: { sequence, held: false, unattested: true, body_retained: true, publicly_visible: true },
    });
    const record = (await get('/imprint')).json();
    const shown = record.imprints.find((i: { sequence: number }) => i.sequence === sequence);
    expect(shown).toMatchObject({ unattested: true, retained: true });
    expect(shown.body).toContain(marker);
    expect((await get('/imprint/feed.json')).body).toContain(marker);
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
    const shown = (await get('/imprint'))
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
    const doc = (await raw('/openapi.json')).json();
    for (const path of ['/operator', '/dashboard', '/steward/held', '/steward/whispers'])
      expect(doc.paths[path]).toBeUndefined();
    expect(doc.paths['/sovereign/triage']).toBeDefined();
  });
});
