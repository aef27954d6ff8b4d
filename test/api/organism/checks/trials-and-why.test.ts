/** Self-trials kept by the verification job (each tamper below is followed by a job run), and why an entity is in its state (HTTP and MCP), over a Record filled past its window. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealDueDays } from '../../../../api/ledger/sealing.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { fillPastWindow } from '../record-past-window.ts';
import { signedInSovereign } from '../../../helpers/identity.ts';
import { verifyNow } from '../verify-now.ts';
import { requests } from '../../../helpers/http.ts';
import { missing } from '../../../helpers/elements.ts';

let t: TestApp;
const SEEDED = 510;

const { get: json } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

/** A job run, then the self-trials it kept. */
const verifiedTrials = async () => {
  await verifyNow(t);
  return (await json('/api/self-trials')).json();
};

beforeAll(async () => {
  t = await createTestApp();
  await signedInSovereign(t.app);
  await fillPastWindow(t, SEEDED);
}, 120_000);
afterAll(async () => t?.close());

describe('GET /api/self-trials', () => {
  it('keeps every invariant verified and passes on a healthy Record', async () => {
    await verifyNow(t);
    const res = await json('/api/self-trials');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.trials.map((trial: { name: string }) => trial.name)).toEqual([
      'record_window',
      'gap_free_sequence',
      'anchor_chain',
      'boundaries',
      'receipts',
    ]);
    expect(body.as_of).toBe(body.checked_at);
    expect(body.verification.walks.find((w: { walk: string }) => w.walk === 'imprints')).toMatchObject({
      verified: SEEDED,
      verified_through: `imprint ${SEEDED}`,
      complete: true,
    });
    for (const trial of body.trials) {
      expect(trial).toEqual({
        name: expect.any(String),
        passed: expect.any(Boolean),
        detail: expect.any(String),
        checked_at: expect.any(String),
      });
    }
    const byName = Object.fromEntries(
      body.trials.map((trial: { name: string; passed: boolean }) => [trial.name, trial]),
    );
    expect(byName.record_window.passed).toBe(true);
    expect(byName.record_window.detail).toContain(`lifetime ${SEEDED}`);
    expect(byName.gap_free_sequence.passed).toBe(true);
    expect(byName.anchor_chain.passed).toBe(true);
    expect(byName.receipts.passed).toBe(true);
    // The boundaries trial is the census itself: it passes exactly when the census is all bound and accounted.
    const census = (await json('/api/boundaries')).json();
    expect(byName.boundaries.passed).toBe(census.all_bound && census.fully_accounted);
    expect(body.boundaries.total).toBe(23);
  }, 60_000);

  it('detects an extra body outside the window, a gap in the sequence and a missing receipt', async () => {
    await sql('update imprints set body = $1 where sequence = 3', ['resurrected']);
    let byName = Object.fromEntries(
      (await verifiedTrials()).trials.map((x: { name: string }) => [x.name, x]),
    );
    expect(byName.record_window.passed).toBe(false);
    expect(byName.record_window.detail).toMatch(/1 retained body is older/);
    await sql('update imprints set body = null where sequence = 3');

    await sql('update imprints set sequence = 9999 where sequence = $1', [SEEDED]);
    byName = Object.fromEntries((await verifiedTrials()).trials.map((x: { name: string }) => [x.name, x]));
    expect(byName.gap_free_sequence.passed).toBe(false);
    await sql('update imprints set sequence = $1 where sequence = 9999', [SEEDED]);

    const [{ receipt_id } = missing()] = await sql<{ receipt_id: string }>(
      'select receipt_id from imprints where sequence = 7',
    );
    await sql("update imprints set receipt_id = 'rcpt_00000000000000000000000000' where sequence = 7");
    const body = await verifiedTrials();
    byName = Object.fromEntries(body.trials.map((x: { name: string }) => [x.name, x]));
    expect(byName.receipts.passed).toBe(false);
    expect(body.all_passed).toBe(false);
    await sql('update imprints set receipt_id = $1 where sequence = 7', [receipt_id]);

    // A tampered receipt breaks the anchor chain trial (its leaf no longer recomputes).
    await sql("update receipts set step = 'tampered' where id = $1", [receipt_id]);
    byName = Object.fromEntries((await verifiedTrials()).trials.map((x: { name: string }) => [x.name, x]));
    expect(byName.anchor_chain.passed).toBe(false);
    expect(byName.receipts.passed).toBe(false);
    await sql("update receipts set step = 'record.imprint' where id = $1", [receipt_id]);

    const healed = await verifiedTrials();
    expect(
      healed.trials.filter((x: { name: string; passed: boolean }) => x.name !== 'boundaries' && !x.passed),
    ).toEqual([]);
  }, 120_000);
});

describe('GET /api/why/{entity} and civitas_why', () => {
  it('explains evicted, retained, held and unattested imprints', async () => {
    const evicted = (await json('/api/why/imprint:1')).json();
    expect(evicted.state).toMatchObject({
      sequence: 1,
      retained: false,
      unattested: true,
      author: 'agent:organism-probe',
    });
    expect(evicted.reasons[0]).toMatch(/^Evicted: imprint 501/);
    const retained = (await json(`/api/why/imprint:${SEEDED}`)).json();
    expect(retained.state.retained).toBe(true);
    expect(retained.reasons.join(' ')).toMatch(/arrived, not attested/);
    const held = (await json('/api/why/imprint:505')).json();
    expect(held.state.author).toBeNull();
    expect(held.reasons.join(' ')).toContain('too many links');
    expect(JSON.stringify(held)).not.toContain('seed 505');
  });

  it('explains an agent level and what is missing', async () => {
    const body = (await json('/api/why/agent:organism-probe')).json();
    expect(body.state).toMatchObject({ handle: 'organism-probe', level: 'arrived', days_required: 2 });
    expect(body.missing).toHaveLength(2);
    expect(body.next_actions[0].rel).toBe('prove-continuity');
  });

  it('explains a receipt: its day, open then sealed', async () => {
    const [{ receipt_id } = missing()] = await sql<{ receipt_id: string }>(
      'select receipt_id from imprints where sequence = 2',
    );
    const open = (await json(`/api/why/receipt:${receipt_id}`)).json();
    expect(open.state).toMatchObject({ id: receipt_id, day: '2026-11-22', sealed: false });
    t.clock.advance(86_400_000);
    await sealDueDays(t.app.civitas);
    const sealed = (await json(`/api/why/receipt:${receipt_id}`)).json();
    expect(sealed.state.sealed).toBe(true);
    expect(sealed.links.anchor).toBe('/verify/anchor/2026-11-22');
    // The sealed chain still passes its trial.
    await verifyNow(t);
    const trials = (await json('/api/self-trials')).json();
    expect(trials.trials.find((x: { name: string }) => x.name === 'anchor_chain')).toMatchObject({
      passed: true,
    });
  }, 60_000);

  it('answers 400 for malformed and 404 for unknown entities', async () => {
    for (const bad of [
      'nonsense',
      'imprint:abc',
      'imprint:0',
      'imprint:-1',
      'agent:A',
      'agent:x',
      'receipt:nope',
      'order:1',
      'imprint:' + '9'.repeat(40),
      encodeURIComponent('agent:<script>'),
    ]) {
      const res = await json(`/api/why/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
    }
    for (const unknown of ['imprint:99999', 'agent:nobody-here', 'receipt:rcpt_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const res = await json(`/api/why/${unknown}`);
      expect(res.statusCode, unknown).toBe(404);
      expect(res.json().reason).toBe('not_found');
    }
  });

  it('gives the same projection over MCP', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'organism-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const viaMcp = (await client.callTool({ name: 'civitas_why', arguments: { entity: 'imprint:1' } }))
      .structuredContent;
    expect(viaMcp).toEqual((await json('/api/why/imprint:1')).json());
    const bad = await client.callTool({ name: 'civitas_why', arguments: { entity: 'what' } });
    expect(bad.isError).toBe(true);
    await client.close();
  });
});
