import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { agentImprint } from '../../helpers/builders.ts';
import { recordReceipt } from '../../../api/ledger/receipts.ts';
import { redactReceiptSubjects } from '../../../api/ledger/redaction.ts';
import { recordDenial } from '../../../api/ledger/denials.ts';
import { requests } from '../../helpers/http.ts';

/**
 * What the public sees of receipts: a redacted subject (the receipt still verifies), denials
 * published without actor ids, the ledger's pages, a receipt's Atom feed and its cards. Receipts'
 * proofs and sealing are receipts.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get, raw } = requests(() => t.app);
const imprint = async (body: string) => (await agentImprint(t.app, 'ledger-probe', body)).receipt_id;

describe('erasure and denials', () => {
  it('redacting a subject keeps the receipt verifiable and says so', async () => {
    const r = await t.database.db.transaction((tx) =>
      recordReceipt(tx, { step: 'identity.cross', subject: 'sovereign:beef', at: t.clock.now() }),
    );
    const n = await t.database.db.transaction((tx) =>
      redactReceiptSubjects(tx, { ids: [r.id], at: t.clock.now() }),
    );
    expect(n).toBe(1);
    expect(
      await t.database.db.transaction((tx) => redactReceiptSubjects(tx, { ids: [r.id], at: t.clock.now() })),
    ).toBe(0);
    const v = (await get(`/verify/${r.id}`)).json();
    expect(v.receipt).toMatchObject({
      subject: 'redacted',
      subject_redacted: true,
      subject_salt: null,
      change_status: null,
    });
    expect(JSON.stringify(v)).not.toContain('sovereign:beef');
    expect(v.ok).toBe(true);
    const report = (await get('/api/transparency')).json();
    expect(report.redactions.receipts_with_subject_redacted).toBeGreaterThanOrEqual(1);
  });

  it('denials are receipts published without actor ids', async () => {
    const rawId = '0b6c7e0e-dead-beef-0000-000000000001';
    const d = await t.database.db.transaction((tx) =>
      recordDenial(tx, {
        action: 'POST /sovereign/order',
        reason: 'scope_required',
        actor: { actor_id: rawId, kind: 'sovereign', tag: '3fa9' },
        at: t.clock.now(),
      }),
    );
    await t.database.db.transaction((tx) =>
      recordDenial(tx, {
        action: 'POST /initiate',
        reason: 'cross_origin_refused',
        actor: null,
        at: t.clock.now(),
      }),
    );
    const report = (await get('/api/transparency')).json();
    expect(report.schema).toBe('civitas.transparency.v1');
    expect(report.denials.total).toBe(2);
    expect(report.denials.recent.map((x: { subject: string }) => x.subject).sort()).toEqual([
      'anonymous',
      'sovereign:3fa9',
    ]);
    expect(JSON.stringify(report)).not.toContain(rawId);
    const v = (await get(`/verify/${d.id}`)).json();
    expect(v.denial).toMatchObject({ reason: 'scope_required', denied_action: 'POST /sovereign/order' });
    expect(JSON.stringify(v)).not.toContain(rawId);
    // erasing the actor removes the public ref from the denial too
    await t.database.db.transaction((tx) =>
      redactReceiptSubjects(tx, { actorRefs: [rawId], at: t.clock.now() }),
    );
    const after = (await get('/api/transparency')).json();
    expect(JSON.stringify(after)).not.toContain('3fa9');
  });
});

describe('pages and feeds (JSON side)', () => {
  it('/ledger and /ledger/{id} list receipts with their days; /receipt/{id} is a hybrid', async () => {
    const id = await imprint('ledger entry');
    const ledger = (await get('/ledger?limit=5')).json();
    expect(ledger.receipts.length).toBeLessThanOrEqual(5);
    expect(ledger.totals.receipts).toBeGreaterThan(0);
    expect(ledger.days[0]).toHaveProperty('sealed');
    const entry = (await get(`/ledger/${id}`)).json();
    expect(entry.receipt.id).toBe(id);
    expect(entry.timeline[0]).toMatchObject({ status: 'record.imprint', receipt_id: id });
    expect((await get(`/receipt/${id}`)).json().id).toBe(id);
    expect((await get('/ledger?before=bad')).statusCode).toBe(400);
  });

  it('/receipt/{id}/feed.xml is Atom of the subject status; cards render', async () => {
    const id = await imprint('feed me');
    const feed = await raw(`/receipt/${id}/feed.xml`);
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toContain('application/atom+xml');
    expect(feed.body).toContain('<feed');
    expect(feed.body).toContain(id);
    const card = await raw(`/receipt/${id}/card.svg`);
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toContain('image/svg+xml');
    expect(card.body.startsWith('<svg')).toBe(true);
    const fixture = await raw('/receipt/sov1.2.0-fixture/card.svg');
    expect(fixture.statusCode).toBe(200);
    const fixture2 = await raw('/receipt/sov1.2.0-fixture/card.svg');
    expect(fixture2.body).toBe(fixture.body);
    expect((await raw('/receipt/rcpt_01JD0000000000000000000000/card.svg')).statusCode).toBe(404);
    expect((await raw('/receipt/nope/feed.xml')).statusCode).toBe(400);
  });
});
