import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { sealDueDays } from '../../../../api/ledger/sealing.ts';
import { flushVitals, vitalsBufferOf } from '../../../../api/plugins/vitals.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { PUBLISHED_ROUTES } from '../../../../shared/registry/index.ts';
import { signedInSovereign, type TestSovereign } from '../../../helpers/identity.ts';

let t: TestApp;
let sovereign: TestSovereign;
const SEEDED = 510;

const json = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { accept: 'application/json', ...headers } });
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.db.query<T>(text, params);

beforeAll(async () => {
  t = await createTestApp();
  sovereign = await signedInSovereign(t.app);
  // One agent arrives through HTTP (real receipts, real agent row) …
  const first = await t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent: 'organism-probe', body: 'first thought' } });
  expect(first.statusCode).toBe(200);
  // … then the Record fills past its window through the same append the routes use.
  await t.database.db.transaction(async (tx) => {
    for (let i = 2; i <= SEEDED; i++) {
      await appendImprint(tx, {
        kind: 'thought', body: `seed ${i}`, authorKind: 'agent', authorRef: 'organism-probe', publicAuthor: 'organism-probe',
        unattested: true, held: i === 505, heldReason: i === 505 ? 'link_density' : null, replyTo: null, at: t.clock.now(),
      });
    }
  });
}, 120_000);
afterAll(async () => t?.close());

describe('GET /api/self-trials', () => {
  it('re-runs every invariant live and passes on a healthy Record', async () => {
    const res = await json('/api/self-trials');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.trials.map((trial: { name: string }) => trial.name)).toEqual(['record_window', 'gap_free_sequence', 'anchor_chain', 'boundaries', 'receipts']);
    for (const trial of body.trials) {
      expect(trial).toEqual({ name: expect.any(String), passed: expect.any(Boolean), detail: expect.any(String), checked_at: expect.any(String) });
    }
    const byName = Object.fromEntries(body.trials.map((trial: { name: string; passed: boolean }) => [trial.name, trial]));
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
    let byName = Object.fromEntries((await json('/api/self-trials')).json().trials.map((x: { name: string }) => [x.name, x]));
    expect(byName.record_window.passed).toBe(false);
    expect(byName.record_window.detail).toMatch(/1 retained body is older/);
    await sql('update imprints set body = null where sequence = 3');

    await sql('update imprints set sequence = 9999 where sequence = $1', [SEEDED]);
    byName = Object.fromEntries((await json('/api/self-trials')).json().trials.map((x: { name: string }) => [x.name, x]));
    expect(byName.gap_free_sequence.passed).toBe(false);
    await sql('update imprints set sequence = $1 where sequence = 9999', [SEEDED]);

    const [{ receipt_id }] = await sql<{ receipt_id: string }>('select receipt_id from imprints where sequence = 7');
    await sql("update imprints set receipt_id = 'rcpt_00000000000000000000000000' where sequence = 7");
    const body = (await json('/api/self-trials')).json();
    byName = Object.fromEntries(body.trials.map((x: { name: string }) => [x.name, x]));
    expect(byName.receipts.passed).toBe(false);
    expect(body.all_passed).toBe(false);
    await sql('update imprints set receipt_id = $1 where sequence = 7', [receipt_id]);

    // A tampered receipt breaks the anchor chain trial (its leaf no longer recomputes).
    await sql("update receipts set step = 'tampered' where id = $1", [receipt_id]);
    byName = Object.fromEntries((await json('/api/self-trials')).json().trials.map((x: { name: string }) => [x.name, x]));
    expect(byName.anchor_chain.passed).toBe(false);
    expect(byName.receipts.passed).toBe(false);
    await sql("update receipts set step = 'record.imprint' where id = $1", [receipt_id]);

    const healed = (await json('/api/self-trials')).json();
    expect(healed.trials.filter((x: { name: string; passed: boolean }) => x.name !== 'boundaries' && !x.passed)).toEqual([]);
  }, 120_000);
});

describe('GET /api/metabolism and its card', () => {
  it('counts intake and evictions from stored imprint times', async () => {
    const body = (await json('/api/metabolism')).json();
    expect(body.lifetime).toEqual({ intake: SEEDED, evictions: SEEDED - 500, bodies_without_text: SEEDED - 500, retained: 500 });
    expect(body.last_day).toMatchObject({ intake: SEEDED, evictions: SEEDED - 500 });
    expect(body.last_hour).toEqual({ intake: SEEDED, evictions: SEEDED - 500 });
    expect(body.hourly).toHaveLength(24);
    expect(body.daily).toHaveLength(30);
    expect(body.residence_hours).toBeCloseTo(500 / (SEEDED / 24), 1);
    expect(JSON.stringify(body)).not.toContain('seed ');
  });

  it('serves the card as SVG kept out of shared caches', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metabolism/card.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain(`${SEEDED} in, ${SEEDED - 500} evicted`);
  });
});

describe('vitals and failures', () => {
  it('measures requests, errors and latency from stored minutes; the wallet block is the equity projection', async () => {
    for (let i = 0; i < 5; i++) await json('/api/stats');
    await json('/api/why/nonsense'); // a 400 is a client error, not a failure
    const res = await json('/api/vitals');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.last_hour.requests).toBeGreaterThanOrEqual(6);
    expect(body.last_hour.client_errors).toBeGreaterThanOrEqual(1);
    expect(body.last_hour.latency_ms.p95).toBeGreaterThan(0);
    expect(body.latency_p95_ms).toBe(body.last_hour.latency_ms.p95);
    expect(body.database).toBe('ok');
    expect(body.database_health).toMatchObject({ status: 'ok', migrations_applied: expect.any(Number) });
    const { ok: _ok, ...equity } = (await json('/api/equity')).json();
    expect(body.wallet).toEqual({ available: true, ...equity, as_of: body.wallet.as_of });
    const [stored] = await sql<{ n: string }>('select coalesce(sum(requests), 0) as n from vitals_minutes');
    expect(Number(stored.n)).toBeGreaterThanOrEqual(6);
  });

  it('records a real 5xx by lane and day, without its words, and counts it as an error', async () => {
    const before = (await json('/api/vitals')).json().last_hour.server_errors;
    await sql('alter table feedback rename to feedback_moved');
    try {
      const failed = await json('/api/feedback');
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toMatchObject({ ok: false, reason: 'internal_error' });
    } finally {
      await sql('alter table feedback_moved rename to feedback');
    }
    const failures = (await json('/api/failures')).json();
    expect(failures.total).toBe(1);
    expect(failures.by_lane).toEqual([{ lane: 'runtime', reason: 'internal_error', hint: expect.any(String), count: 1, last_at: expect.any(String) }]);
    expect(failures.by_day).toEqual([{ date: '2026-11-22', lane: 'runtime', reason: 'internal_error', count: 1 }]);
    expect(JSON.stringify(failures)).not.toMatch(/feedback|relation|does not exist/);
    const [row] = await sql('select * from failures');
    expect(Object.keys(row).sort()).toEqual(['at', 'external', 'id', 'lane']); // lane, time and whether a provider failed: nothing else
    expect((await json('/api/vitals')).json().last_hour.server_errors).toBe(before + 1);
  });

  it('does not count 501 (not built) as a failure', async () => {
    await flushVitals(t.app.civitas);
    const before = (await json('/api/failures')).json().total;
    // Any unscoped JSON read still unbuilt (/api/soul, once the example, is built now).
    const pending = PUBLISHED_ROUTES.find((r) => r.kind === 'api' && !r.scope && !r.path.includes('{') && r.methods.includes('GET') && t.app.realisations.get(`GET ${r.path}`) === 'not_implemented');
    if (!pending) return;
    expect((await json(pending.path)).statusCode).toBe(501);
    expect((await json('/api/failures')).json().total).toBe(before);
  });

  it('compares periods in /api/vitals/changes', async () => {
    const body = (await json('/api/vitals/changes')).json();
    expect(body.changes).toHaveLength(6);
    const dayRequests = body.changes.find((c: { period: string; metric: string }) => c.period === 'day' && c.metric === 'requests');
    expect(dayRequests.before).toBe(0);
    expect(dayRequests.after).toBeGreaterThan(0);
    expect(dayRequests.notable).toBe(dayRequests.after >= 20);
  });

  it('keeps figures in memory when a flush fails and writes them later', async () => {
    const buffer = vitalsBufferOf(t.app.civitas)!;
    await flushVitals(t.app.civitas);
    buffer.record(t.clock.now(), 200, 3);
    await sql('alter table vitals_minutes rename to vitals_minutes_moved');
    try {
      await expect(flushVitals(t.app.civitas)).rejects.toThrow();
    } finally {
      await sql('alter table vitals_minutes_moved rename to vitals_minutes');
    }
    expect([...buffer.minutes.values()].reduce((n, m) => n + m.requests, 0)).toBeGreaterThanOrEqual(1);
    expect((await flushVitals(t.app.civitas)).minutes).toBeGreaterThanOrEqual(1);
  });
});

describe('GET /api/state and /api/organism', () => {
  it('summarises by kind, through the projectors, with no raw ids', async () => {
    const body = (await json('/api/state')).json();
    expect(body.population).toMatchObject({ humans: 1, agents: 1 });
    expect(body.agents_by_level).toEqual({ arrived: 1, continuous: 0, attested: 0 });
    expect(body.record).toMatchObject({ window: 500, imprints_lifetime: SEEDED, imprints_retained: 500, oldest_retained: SEEDED - 499, imprints_held: 1 });
    expect(body.quarantine.held).toEqual({ held: 1, reasons: [{ rule: 'link_density', reason: 'too many links', count: 1 }] });
    expect(body.quarantine.newest_unattested[0]).toEqual({ sequence: SEEDED, author: 'agent:organism-probe', reason: expect.any(String), since: expect.any(String) });
    expect(body.newest_actors).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'sovereign', ref: `sovereign:${sovereign.tag}` })]));
    expect(body.ledger.receipts).toBeGreaterThanOrEqual(SEEDED);
    expect(body.federated_cohorts).toEqual([]);
    expect(JSON.stringify(body)).not.toContain(sovereign.id);
    expect(JSON.stringify(body)).not.toContain('seed ');
  });

  it('never names a handle whose only imprints are held spam', async () => {
    await t.database.db.transaction(async (tx) => {
      await tx.query("insert into agents (handle, secret_hash, first_seen_at, last_seen_at) values ('held-only-spammer', 'x', $1, $1)", [t.clock.now().toISOString()]);
      // Stored beside the Record (sequence outside it), so the window and the other tests stay as seeded.
      await tx.query(
        `insert into imprints (sequence, kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, receipt_id)
         values (99999, 'thought', 'spam', 'agent', 'held-only-spammer', 'held-only-spammer', $1, true, true, 'bad_pattern', 'rcpt_none')`,
        [t.clock.now().toISOString()],
      );
    });
    const body = (await json('/api/state')).json();
    expect(JSON.stringify(body)).not.toContain('held-only-spammer');
    expect(body.quarantine.held.held).toBe(2);
    await t.database.db.transaction(async (tx) => {
      await tx.query('delete from imprints where sequence = 99999');
      await tx.query("delete from agents where handle = 'held-only-spammer'");
    });
  });

  it('gives the organism in one view', async () => {
    const body = (await json('/api/organism')).json();
    expect(body.population).toEqual({ humans: 1, agents: 1 });
    expect(body.record.imprints_lifetime).toBe(SEEDED);
    expect(body.quarantine.held.held).toBe(1);
    expect(body.self_trials.trials).toHaveLength(5);
    expect(body.boundaries.total).toBe(23);
    expect(body.vitals.database).toBe('ok');
    expect(JSON.stringify(body)).not.toContain(sovereign.id);
  }, 60_000);
});

describe('GET /api/promises', () => {
  it('says which objectives are kept, from vitals and self-trials', async () => {
    const body = (await json('/api/promises')).json();
    const byName = Object.fromEntries(body.promises.map((p: { name: string }) => [p.name, p]));
    expect(Object.keys(byName)).toEqual(['availability', 'latency_p95', 'boundaries', 'record_window', 'gap_free_sequence', 'anchor_chain', 'receipts']);
    // One real 500 among the requests this file made: measured, below 100%.
    expect(byName.availability.measured).toBeLessThan(1);
    expect(byName.availability.kept).toBe(byName.availability.measured >= 0.995);
    expect(byName.record_window.kept).toBe(true);
    expect(body.kept + body.broken + body.unmeasured).toBe(7);
  }, 60_000);
});

describe('GET /api/why/{entity} and civitas_why', () => {
  it('explains evicted, retained, held and unattested imprints', async () => {
    const evicted = (await json('/api/why/imprint:1')).json();
    expect(evicted.state).toMatchObject({ sequence: 1, retained: false, unattested: true, author: 'agent:organism-probe' });
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
    const [{ receipt_id }] = await sql<{ receipt_id: string }>('select receipt_id from imprints where sequence = 2');
    const open = (await json(`/api/why/receipt:${receipt_id}`)).json();
    expect(open.state).toMatchObject({ id: receipt_id, day: '2026-11-22', sealed: false });
    t.clock.advance(86_400_000);
    await sealDueDays(t.app.civitas);
    const sealed = (await json(`/api/why/receipt:${receipt_id}`)).json();
    expect(sealed.state.sealed).toBe(true);
    expect(sealed.links.anchor).toBe('/verify/anchor/2026-11-22');
    // The sealed chain still passes its trial.
    const trials = (await json('/api/self-trials')).json();
    expect(trials.trials.find((x: { name: string }) => x.name === 'anchor_chain')).toMatchObject({ passed: true });
  }, 60_000);

  it('answers 400 for malformed and 404 for unknown entities', async () => {
    for (const bad of ['nonsense', 'imprint:abc', 'imprint:0', 'imprint:-1', 'agent:A', 'agent:x', 'receipt:nope', 'order:1', 'imprint:' + '9'.repeat(40), encodeURIComponent('agent:<script>')]) {
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
    const viaMcp = (await client.callTool({ name: 'civitas_why', arguments: { entity: 'imprint:1' } })).structuredContent;
    expect(viaMcp).toEqual((await json('/api/why/imprint:1')).json());
    const bad = await client.callTool({ name: 'civitas_why', arguments: { entity: 'what' } });
    expect(bad.isError).toBe(true);
    await client.close();
  });
});
