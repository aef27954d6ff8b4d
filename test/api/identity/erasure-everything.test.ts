import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { continuousAgent, heldAgentImprint } from '../../helpers/builders.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { PERSONAL_DATA } from '../../../api/personal-data.ts';
import { stripeSignatureHeader } from '../../../shared/treasury/stripe-signature.ts';
import { requests } from '../../helpers/http.ts';
import { entry, missing } from '../../helpers/elements.ts';

/**
 * Data rights across every family (docs/identity.md, "Personal data"): one Sovereign makes one of
 * everything a Sovereign can make — every `sovereign:write` and `governance:write` door and every
 * payment door, paid through the Stripe webhook against a fake Stripe on loopback — then exports,
 * then is erased. The export must hold every item; afterwards nothing personal is left in any
 * column, no public surface attributes anything to the old tag, and counts and receipts survive.
 */

const WEBHOOK_SECRET = 'whsec_civitas_erasure';
const RUN = randomBytes(4).toString('hex');
/** Every word the person writes carries this mark, so a whole-database scan can find any copy. */
const M = `zqmark${RUN}`;
const KEPT = `keptmotion${RUN}`;
const CUSTOMER = `cus_${RUN}erased`;
const EMAIL = `${M}@example.org`;
const CALLSIGN = `Callsign${RUN}`;

let t: TestApp;
let steward: TestSovereign;
let me: TestSovereign;
let others: TestSovereign[];
let fake: Server;
let events = 0;

beforeAll(async () => {
  fake = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/checkout/sessions')
        return res.end(
          JSON.stringify({
            id: `cs_test_${RUN}_${++events}`,
            url: `https://checkout.stripe.test/c/${events}`,
          }),
        );
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const apiBase = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  ({ t, steward } = await appWithSteward({
    config: {
      treasury: {
        stripeSecretKey: 'sk_test_fake',
        webhookSecret: WEBHOOK_SECRET,
        apiBase,
        oraclePriceCents: 700,
        currency: 'usd',
      },
    },
  }));
  me = await signedInSovereign(t.app, { callsign: CALLSIGN, governance: true });
  others = [];
  for (let i = 0; i < 5; i++) others.push(await signedInSovereign(t.app, { governance: true }));
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => fake?.close(resolve));
});

const http = requests(() => t.app);
const get = (url: string, who?: TestSovereign) => http.get(url, who);
async function post(url: string, payload: Record<string, unknown>, who?: TestSovereign) {
  const res = await http.post(url, payload, who);
  expect(res.statusCode, `${url} ${res.body.slice(0, 300)}`).toBe(200);
  return res.json();
}
async function webhook(event: unknown) {
  const raw = JSON.stringify(event);
  const at = Math.floor(t.clock.now().getTime() / 1000);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripeSignatureHeader(WEBHOOK_SECRET, at, raw),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}
async function pay(intent: string, amount: number) {
  await webhook({
    id: `evt_${RUN}_${intent}`,
    type: 'checkout.session.completed',
    data: {
      object: {
        payment_status: 'paid',
        currency: 'usd',
        amount_total: amount,
        customer: CUSTOMER,
        metadata: { intent },
      },
    },
  });
}
/** A held agent imprint a steward kept held: something a court case can be opened on. */
async function heldImprint(n: number): Promise<number> {
  const { sequence } = await heldAgentImprint(t.app, `held-${RUN}-${n}`, `held${RUN}n${n}`);
  await post(
    '/sovereign/triage',
    { target: `imprint:${sequence}`, action: 'keep_held', note: 'kept held' },
    steward,
  );
  return sequence;
}

/** What the person made, by kind: ids and receipt ids to find in the export and to verify after erasure. */
const made: Record<string, { id?: string; receipt_id: string }> = {};

async function makeOneOfEverything() {
  // The Record: an imprint, a report of someone else's imprint, feedback; a visible callsign; an email.
  made.imprint = await post('/api/quick-imprint', { body: `${M} imprint body` }, me);
  const theirs = await post('/api/quick-imprint', { body: 'someone else speaking' }, others[0]);
  const report = await post(
    '/imprint/report',
    { sequence: theirs.sequence, reason: 'abuse', detail: `${M} report detail` },
    me,
  );
  made.report = { id: report.report_id, receipt_id: report.receipt_id };
  const feedback = await post('/feedback/report', { topic: 'idea', body: `${M} feedback body` }, me);
  made.feedback = { id: feedback.feedback_id, receipt_id: feedback.receipt_id };
  await post('/sovereign/callsign-visibility', { visible: true }, me);
  await t.app.civitas.db.query('update sovereigns set email = $2, email_verified_at = now() where id = $1', [
    me.id,
    EMAIL,
  ]);

  // Governance: a proposal of mine; a cosign and a ratification of another's; a pledge; a backing.
  const mine = await post('/api/constitution/propose', { title: `${KEPT} title`, text: `${KEPT} text` }, me);
  made.proposal = { id: mine.proposal.id, receipt_id: mine.receipt_id };
  const theirsP = await post(
    '/api/constitution/propose',
    { title: 'Receipts are kept for ten years', text: 'Every receipt stays verifiable.' },
    others[0],
  );
  const proposal = theirsP.proposal.id as string;
  made.cosign = await post('/api/constitution/cosign', { proposal }, me);
  for (const c of others.slice(1, 3)) await post('/api/constitution/cosign', { proposal }, c);
  made.ratification = await post('/api/constitution/ratify', { proposal }, me);
  const pledge = await post('/sovereign/pledge', { article: 'axiom-2', text: `${M} pledge text` }, me);
  made.pledge = { id: pledge.pledge.id, receipt_id: pledge.receipt_id };
  const theirPledge = await post(
    '/sovereign/pledge',
    { article: 'axiom-3', text: 'I keep my receipts.' },
    others[1],
  );
  made.pledge_back = await post('/sovereign/pledge/back', { pledge: theirPledge.pledge.id }, me);

  // The court: a case I open, and my signature (with a reason) on a case someone else opened.
  const opened = await post(
    '/sovereign/court-sign',
    { case: 'new', target: `imprint:${await heldImprint(1)}`, reason: `${M} opening reason` },
    me,
  );
  made.court_case = { id: opened.case.id, receipt_id: opened.receipt_id };
  const other = await post(
    '/sovereign/court-sign',
    { case: 'new', target: `imprint:${await heldImprint(2)}`, reason: 'The hold looks wrong.' },
    others[0],
  );
  made.court_signature = await post(
    '/sovereign/court-sign',
    { case_id: other.case.id, verdict: 'overturn', reason: `${M} juror reason` },
    me,
  );

  // Calibration: a prophecy, a pact, a stake on someone else's pact.
  const prophecy = await post(
    '/sovereign/prophecy',
    { metric: 'humans', comparator: 'gte', threshold: 1000, probability: 0.3, due_in_days: 3 },
    me,
  );
  made.prophecy = { id: prophecy.prophecy_id, receipt_id: prophecy.receipt_id };
  const pact = await post(
    '/sovereign/pact',
    { title: `${M} pact title`, detail: `${M} pact detail`, stake: 10, due_in_days: 7 },
    me,
  );
  made.pact = { id: pact.pact_id, receipt_id: pact.receipt_id };
  const theirPact = await post(
    '/sovereign/pact',
    { title: 'Write the guide', stake: 10, due_in_days: 7 },
    others[0],
  );
  made.stake = await post(
    '/sovereign/pact/stake',
    { pact: theirPact.pact_id, points: 5, side: 'broken' },
    me,
  );

  // Orders: one filed, one seconded.
  const order = await post(
    '/sovereign/order',
    { title: `${M} order title`, detail: `${M} order detail` },
    me,
  );
  made.order = { id: order.order_id, receipt_id: order.receipt_id };
  const theirOrder = await post('/sovereign/order', { title: 'A dark theme' }, others[0]);
  made.second = await post('/sovereign/second', { order: theirOrder.order_id }, me);

  // The mind: a stance with a reason.
  const stance = await post(
    '/api/mind/stance',
    { claim: 'window_bounded', stance: 'agree', reason: `${M} stance reason` },
    me,
  );
  made.stance = { receipt_id: stance.receipt.id };

  // The treasury, paid through the signed webhook: an Oracle purchase (and its report), patronage, an inscription.
  const buy = await post('/api/oracle/buy', { uses: 1 }, me);
  await pay(buy.intent, 700);
  const oracle = await post('/api/oracle', {}, me);
  made.oracle_report = { id: oracle.report_id, receipt_id: oracle.receipt_id };
  const patronage = await post('/api/patronage', { amount: 500, listed: true }, me);
  await pay(patronage.intent, 500);
  const inscription = await post('/api/inscribe', { text: `${M} inscription` }, me);
  await pay(inscription.intent, 300);

  // Agents: attest a continuous handle (proofs on two UTC days).
  await continuousAgent(t, `wren-${RUN}`);
  const attested = await post('/standing/rotate-relay', { handle: `wren-${RUN}` }, me);
  expect(attested.relay_token).toEqual(expect.any(String));
}

/** Public surfaces that name people or show their acts. */
const SURFACES = [
  '/api/codex/pledges',
  '/api/verdicts',
  '/api/dissent',
  '/lineage',
  '/api/constitution',
  '/api/orders',
  '/almanac',
  '/prophecy',
  '/api/calibration',
  '/api/mind',
  '/api/inscriptions',
  '/api/patrons',
  '/api/state',
  '/api/transparency',
  '/api/quarantine',
];

async function surfaceTexts(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const url of SURFACES) {
    const res = await get(url);
    expect(res.statusCode, url).toBe(200);
    out[url] = res.body;
  }
  return out;
}

async function counts() {
  const stats = (await get('/api/stats')).json();
  const db = t.app.civitas.db;
  const [row] = await db.query<Record<string, string>>(
    `select (select count(*) from governance_cosigns) as cosigns, (select count(*) from governance_ratifications) as ratifications,
            (select count(*) from governance_pledges) as pledges, (select count(*) from governance_pledge_backs) as backs,
            (select count(*) from governance_court_signatures) as signatures, (select count(*) from governance_court_cases) as cases,
            (select count(*) from pacts) as pacts, (select coalesce(sum(points), 0) from pact_stakes) as staked,
            (select count(*) from prophecies) as prophecies, (select count(*) from orders) as orders, (select coalesce(sum(seconds), 0) from orders) as seconds,
            (select count(*) from mind_stances) as stances, (select count(*) from treasury_payments) as payments,
            (select coalesce(sum(amount_cents), 0) from treasury_payments) as paid, (select coalesce(sum(units), 0) from treasury_patrons) as units,
            (select count(*) from sovereigns) as sovereigns`,
  );
  return { humans: stats.humans, imprints: stats.imprints_lifetime, ...row };
}

describe('erasure across every family', () => {
  it('exports every item, then erases: nothing personal left, nothing attributed, counts and receipts kept', async () => {
    await makeOneOfEverything();
    const before = await counts();
    const surfacesBefore = await surfaceTexts();
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
    const surfacesAfter = await surfaceTexts();
    for (const [url, body] of Object.entries(surfacesAfter)) {
      for (const needle of [`sovereign:${me.tag}`, M, CALLSIGN])
        expect(body.includes(needle), `${url} still shows ${needle}`).toBe(false);
    }
    const passport = (await get(`/passport?tag=${me.tag}`)).json();
    expect(passport.holder).toBeNull();

    // 3. Counts survive: every act is still counted (as the act of no one).
    const after = await counts();
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
