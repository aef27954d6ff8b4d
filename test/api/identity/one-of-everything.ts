import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { continuousAgent, heldAgentImprint } from '../../helpers/builders.ts';
import type { TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { signedByStripe } from '../../helpers/stripe.ts';

/**
 * One of everything a Sovereign can make, for erasure-everything.test.ts: every `sovereign:write`
 * and `governance:write` door and every payment door (paid through the signed Stripe webhook), each
 * item's id and receipt kept to find in the export and verify after erasure; and what the test
 * reads before and after (the public surfaces that name people, the counts that must survive).
 */

export const WEBHOOK_SECRET = 'whsec_civitas_erasure';
export const RUN = randomBytes(4).toString('hex');
/** Every word the person writes carries this mark, so a whole-database scan can find any copy. */
export const M = `zqmark${RUN}`;
/** The proposal's words, kept after erasure as the polity's motion. */
export const KEPT = `keptmotion${RUN}`;
export const CUSTOMER = `cus_${RUN}erased`;
export const EMAIL = `${M}@example.org`;
export const CALLSIGN = `Callsign${RUN}`;

/** Who takes part: the person to erase, five others and a steward, on one app. */
export interface Scene {
  t: TestApp;
  me: TestSovereign;
  others: TestSovereign[];
  steward: TestSovereign;
}

/** What the person made, by kind: ids and receipt ids to find in the export and to verify after erasure. */
export type Made = Record<string, { id?: string; receipt_id: string }>;

async function post(t: TestApp, url: string, payload: Record<string, unknown>, who?: TestSovereign) {
  const res = await requests(() => t.app).post(url, payload, who);
  expect(res.statusCode, `${url} ${res.body.slice(0, 300)}`).toBe(200);
  return res.json();
}

async function pay(t: TestApp, intent: string, amount: number) {
  const event = {
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
  };
  const res = await signedByStripe(t, '/api/stripe/webhook', event, WEBHOOK_SECRET);
  expect(res.statusCode, res.body).toBe(200);
}

/** A held agent imprint a steward kept held: something a court case can be opened on. */
async function heldImprint({ t, steward }: Scene, n: number): Promise<number> {
  const { sequence } = await heldAgentImprint(t.app, `held-${RUN}-${n}`, `held${RUN}n${n}`);
  await post(
    t,
    '/sovereign/triage',
    { target: `imprint:${sequence}`, action: 'keep_held', note: 'kept held' },
    steward,
  );
  return sequence;
}

/** The person makes one of everything; what they made, by kind. */
export async function makeOneOfEverything(scene: Scene): Promise<Made> {
  const { t, me, others } = scene;
  const made: Made = {};
  // The Record: an imprint, a report of someone else's imprint, feedback; a visible callsign; an email.
  made.imprint = await post(t, '/api/quick-imprint', { body: `${M} imprint body` }, me);
  const theirs = await post(t, '/api/quick-imprint', { body: 'someone else speaking' }, others[0]);
  const report = await post(
    t,
    '/imprint/report',
    { sequence: theirs.sequence, reason: 'abuse', detail: `${M} report detail` },
    me,
  );
  made.report = { id: report.report_id, receipt_id: report.receipt_id };
  const feedback = await post(t, '/feedback/report', { topic: 'idea', body: `${M} feedback body` }, me);
  made.feedback = { id: feedback.feedback_id, receipt_id: feedback.receipt_id };
  await post(t, '/sovereign/callsign-visibility', { visible: true }, me);
  await t.app.civitas.db.query('update sovereigns set email = $2, email_verified_at = now() where id = $1', [
    me.id,
    EMAIL,
  ]);

  // Governance: a proposal of mine; a cosign and a ratification of another's; a pledge; a backing.
  const mine = await post(
    t,
    '/api/constitution/propose',
    { title: `${KEPT} title`, text: `${KEPT} text` },
    me,
  );
  made.proposal = { id: mine.proposal.id, receipt_id: mine.receipt_id };
  const theirsP = await post(
    t,
    '/api/constitution/propose',
    { title: 'Receipts are kept for ten years', text: 'Every receipt stays verifiable.' },
    others[0],
  );
  const proposal = theirsP.proposal.id as string;
  made.cosign = await post(t, '/api/constitution/cosign', { proposal }, me);
  for (const c of others.slice(1, 3)) await post(t, '/api/constitution/cosign', { proposal }, c);
  made.ratification = await post(t, '/api/constitution/ratify', { proposal }, me);
  const pledge = await post(t, '/sovereign/pledge', { article: 'axiom-2', text: `${M} pledge text` }, me);
  made.pledge = { id: pledge.pledge.id, receipt_id: pledge.receipt_id };
  const theirPledge = await post(
    t,
    '/sovereign/pledge',
    { article: 'axiom-3', text: 'I keep my receipts.' },
    others[1],
  );
  made.pledge_back = await post(t, '/sovereign/pledge/back', { pledge: theirPledge.pledge.id }, me);

  // The court: a case I open, and my signature (with a reason) on a case someone else opened.
  const opened = await post(
    t,
    '/sovereign/court-sign',
    { case: 'new', target: `imprint:${await heldImprint(scene, 1)}`, reason: `${M} opening reason` },
    me,
  );
  made.court_case = { id: opened.case.id, receipt_id: opened.receipt_id };
  const other = await post(
    t,
    '/sovereign/court-sign',
    { case: 'new', target: `imprint:${await heldImprint(scene, 2)}`, reason: 'The hold looks wrong.' },
    others[0],
  );
  made.court_signature = await post(
    t,
    '/sovereign/court-sign',
    { case_id: other.case.id, verdict: 'overturn', reason: `${M} juror reason` },
    me,
  );

  // Calibration: a prophecy, a pact, a stake on someone else's pact.
  const prophecy = await post(
    t,
    '/sovereign/prophecy',
    { metric: 'humans', comparator: 'gte', threshold: 1000, probability: 0.3, due_in_days: 3 },
    me,
  );
  made.prophecy = { id: prophecy.prophecy_id, receipt_id: prophecy.receipt_id };
  const pact = await post(
    t,
    '/sovereign/pact',
    { title: `${M} pact title`, detail: `${M} pact detail`, stake: 10, due_in_days: 7 },
    me,
  );
  made.pact = { id: pact.pact_id, receipt_id: pact.receipt_id };
  const theirPact = await post(
    t,
    '/sovereign/pact',
    { title: 'Write the guide', stake: 10, due_in_days: 7 },
    others[0],
  );
  made.stake = await post(
    t,
    '/sovereign/pact/stake',
    { pact: theirPact.pact_id, points: 5, side: 'broken' },
    me,
  );

  // Orders: one filed, one seconded.
  const order = await post(
    t,
    '/sovereign/order',
    { title: `${M} order title`, detail: `${M} order detail` },
    me,
  );
  made.order = { id: order.order_id, receipt_id: order.receipt_id };
  const theirOrder = await post(t, '/sovereign/order', { title: 'A dark theme' }, others[0]);
  made.second = await post(t, '/sovereign/second', { order: theirOrder.order_id }, me);

  // The mind: a stance with a reason.
  const stance = await post(
    t,
    '/api/mind/stance',
    { claim: 'window_bounded', stance: 'agree', reason: `${M} stance reason` },
    me,
  );
  made.stance = { receipt_id: stance.receipt.id };

  // The treasury, paid through the signed webhook: an Oracle purchase (and its report), patronage, an inscription.
  const buy = await post(t, '/api/oracle/buy', { uses: 1 }, me);
  await pay(t, buy.intent, 700);
  const oracle = await post(t, '/api/oracle', {}, me);
  made.oracle_report = { id: oracle.report_id, receipt_id: oracle.receipt_id };
  const patronage = await post(t, '/api/patronage', { amount: 500, listed: true }, me);
  await pay(t, patronage.intent, 500);
  const inscription = await post(t, '/api/inscribe', { text: `${M} inscription` }, me);
  await pay(t, inscription.intent, 300);

  // Agents: attest a continuous handle (proofs on two UTC days).
  await continuousAgent(t, `wren-${RUN}`);
  const attested = await post(t, '/standing/rotate-relay', { handle: `wren-${RUN}` }, me);
  expect(attested.relay_token).toEqual(expect.any(String));
  return made;
}

/** Public surfaces that name people or show their acts. */
export const SURFACES = [
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

/** Each public surface's text, as anyone reads it. */
export async function surfaceTexts(t: TestApp): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const url of SURFACES) {
    const res = await requests(() => t.app).get(url);
    expect(res.statusCode, url).toBe(200);
    out[url] = res.body;
  }
  return out;
}

/** The counts erasure must keep: humans, imprints, and every family's counted acts. */
export async function counts(t: TestApp) {
  const stats = (await requests(() => t.app).get('/api/stats')).json();
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
