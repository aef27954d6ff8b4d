import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { PERSONAL_DATA } from '../../../api/personal-data.ts';
import { requests } from '../../helpers/http.ts';
import { fakeStripe, type FakeStripe, stripeTreasury } from '../../helpers/stripe.ts';
import { entry, missing } from '../../helpers/elements.ts';
import {
  CALLSIGN,
  counts,
  CUSTOMER,
  EMAIL,
  KEPT,
  M,
  makeOneOfEverything,
  RUN,
  surfaceTexts,
  WEBHOOK_SECRET,
} from './one-of-everything.ts';

/**
 * Data rights across every family (docs/identity.md, "Personal data"): one Sovereign makes one of
 * everything a Sovereign can make (one-of-everything.ts) — every `sovereign:write` and
 * `governance:write` door and every payment door, paid through the Stripe webhook against a fake
 * Stripe on loopback — then exports, then is erased. The export must hold every item; afterwards
 * nothing personal is left in any column, no public surface attributes anything to the old tag, and
 * counts and receipts survive.
 */
let t: TestApp;
let steward: TestSovereign;
let me: TestSovereign;
let others: TestSovereign[];
let stripe: FakeStripe;

beforeAll(async () => {
  stripe = await fakeStripe();
  ({ t, steward } = await appWithSteward({
    config: {
      treasury: stripeTreasury(stripe, WEBHOOK_SECRET),
    },
  }));
  me = await signedInSovereign(t.app, { callsign: CALLSIGN, governance: true });
  others = [];
  for (let i = 0; i < 5; i++) others.push(await signedInSovereign(t.app, { governance: true }));
}, 120_000);
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const { get, post: ask } = requests(() => t.app);
async function post(url: string, payload: Record<string, unknown>, who?: TestSovereign) {
  const res = await ask(url, payload, who);
  expect(res.statusCode, `${url} ${res.body.slice(0, 300)}`).toBe(200);
  return res.json();
}

describe('erasure across every family', () => {
  it('exports every item, then erases: nothing personal left, nothing attributed, counts and receipts kept', async () => {
    const made = await makeOneOfEverything({ t, me, others, steward });
    const before = await counts(t);
    const surfacesBefore = await surfaceTexts(t);
    // The fixture really is attributed before erasure (so the checks below can fail).
    expect(surfacesBefore['/api/codex/pledges']).toContain(`sovereign:${me.tag}`);
    expect(surfacesBefore['/api/verdicts']).toContain(`sovereign:${me.tag}`);
    expect(surfacesBefore['/api/orders']).toContain(`${M} order title`);

    // The owner's overview counts what every family holds.
    const overview = (await get('/settings/data', me)).json();
    const held = (category: string) =>
      overview.held.find((h: { category: string }) => h.category === category);
    for (const category of [
      'pledges',
      'court_signatures',
      'pacts',
      'orders',
      'mind_stances',
      'oracle_reports',
    ])
      expect(held(category), category).toMatchObject({ present: true, count: 1 });
    expect(held('payments')).toMatchObject({ present: true, count: 3 });

    // Export first: every item of every family is in the bundle.
    const exportId = (await post('/settings/data/request', { kind: 'export' }, me)).request.id;
    await post('/steward/data-requests', { id: exportId, action: 'complete' }, steward);
    const download = await get(`/settings/data/request?download=${exportId}`, me);
    expect(download.statusCode).toBe(200);
    const bundle = download.json();
    for (const [kind, item] of Object.entries(made)) {
      expect(item.receipt_id, kind).toMatch(/^[A-Za-z0-9_]+$/);
      expect(download.body, `the export holds the ${kind}'s receipt`).toContain(item.receipt_id);
      if ('id' in item) {
        expect(item.id, `${kind} id`).toEqual(expect.any(String));
        expect(download.body, `the export holds the ${kind}`).toContain(item.id);
      }
    }
    for (const words of [
      'imprint body',
      'report detail',
      'feedback body',
      'pledge text',
      'opening reason',
      'juror reason',
      'pact title',
      'pact detail',
      'order title',
      'order detail',
      'stance reason',
      'inscription',
    ]) {
      expect(download.body, words).toContain(`${M} ${words}`);
    }
    expect(download.body).toContain(`${KEPT} title`);
    expect(download.body).toContain(CUSTOMER);
    expect(bundle.sovereign).toMatchObject({ id: me.id, tag: me.tag, callsign: CALLSIGN, email: EMAIL });
    expect(bundle.agents_attested).toEqual([expect.objectContaining({ handle: `wren-${RUN}` })]);
    expect(bundle.payments).toHaveLength(3);
    expect(bundle.entitlements).toHaveLength(1);
    expect(bundle.patronage).toEqual([expect.objectContaining({ listed: true })]);
    // Every declared family contributed its sections.
    for (const family of PERSONAL_DATA)
      for (const section of Object.keys(
        await family.export(t.app.civitas.db, { id: me.id, tag: me.tag, ref: `sovereign:${me.tag}` }),
      ))
        expect(bundle, section).toHaveProperty(section);

    // Erase.
    const erasureId = (await post('/settings/data/request', { kind: 'erasure' }, me)).request.id;
    const done = await post('/steward/data-requests', { id: erasureId, action: 'complete' }, steward);
    expect(done.erased.rows).toMatchObject({
      governance_pledges: 1,
      governance_court_signatures: 1,
      pacts: 1,
      orders: 1,
      mind_stances: 1,
      treasury_payments: 3,
      sovereigns: 1,
    });

    // 1. Nothing personal in any column of any table (words kept under a stated basis excepted, by declaration).
    const db = t.app.civitas.db;
    const kept = new Map(
      PERSONAL_DATA.flatMap((f) => f.tables.map((tb) => [tb.table, tb.keptWords ?? []] as const)),
    );
    const tables = await db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    const needles = [me.id, `sovereign:${me.tag}`, M, CALLSIGN, EMAIL, CUSTOMER, me.key];
    for (const { table_name } of tables) {
      const drop = kept.get(table_name) ?? [];
      const rows = await db.query<{ row: string }>(
        `select (to_jsonb(t) - $1::text[])::text as row from "${table_name}" t`,
        [drop],
      );
      for (const { row } of rows)
        for (const needle of needles)
          expect(row.includes(needle), `${table_name} still holds ${needle.slice(0, 24)}`).toBe(false);
    }
    // The bare tag names no one: no row holds it as a tag or public ref.
    const tagged = await db.query(
      `select 1 from sovereigns where tag = $1 and erased_at is not null
       union all select 1 from treasury_patrons where public_ref = $1 union all select 1 from treasury_intents where public_ref = $1
       union all select 1 from denials where actor_public = $1 union all select 1 from imprints where public_author = $1`,
      [me.tag],
    );
    expect(tagged).toEqual([]);
    // The proposal's text is kept (the polity's motion), unattributed.
    const [motion = missing()] = await db.query<{ proposer_id: string }>(
      'select proposer_id from governance_proposals where id = $1',
      [entry(made, 'proposal').id],
    );
    expect(motion.proposer_id).not.toBe(me.id);

    // 2. No public surface attributes anything to the erased tag or shows the person's words.
    const surfacesAfter = await surfaceTexts(t);
    for (const [url, body] of Object.entries(surfacesAfter)) {
      for (const needle of [`sovereign:${me.tag}`, M, CALLSIGN])
        expect(body.includes(needle), `${url} still shows ${needle}`).toBe(false);
    }
    const passport = (await get(`/passport?tag=${me.tag}`)).json();
    expect(passport.holder).toBeNull();

    // 3. Counts survive: every act is still counted (as the act of no one).
    const after = await counts(t);
    expect(after).toEqual(before);
    const verdicts = (await get('/api/verdicts')).json();
    expect(JSON.stringify(verdicts)).toContain('"overturn"');

    // 4. Receipts survive and verify; the ones that named the person read "redacted".
    for (const [kind, item] of Object.entries(made)) {
      const verify = await get(`/verify/${item.receipt_id}`);
      expect(verify.statusCode, `${kind} receipt verifies`).toBe(200);
      expect(verify.body).not.toContain(`sovereign:${me.tag}`);
    }
    const crossing = (await get(`/begin/receipt/${me.receiptId}`)).json();
    expect(crossing.receipt.subject).toBe('redacted');
  }, 240_000);
});
