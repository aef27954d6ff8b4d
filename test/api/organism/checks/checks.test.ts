import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { organismJobs } from '../../../../api/organism/jobs.ts';
import { dreamJob } from '../../../../api/organism/themes/dreaming.ts';
import { discriminationJob } from '../../../../api/organism/checks/discrimination.ts';
import { JOBS } from '../../../../api/families.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../../helpers/identity.ts';
import { verifyNow } from '../verify-now.ts';
import { requests } from '../../../helpers/http.ts';
import { missing } from '../../../helpers/elements.ts';

let t: TestApp;
let sovereign: TestSovereign;
const NOW = Date.parse('2026-11-22T12:00:00.000Z');

const { get: json } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

async function seed(
  author: string,
  body: string,
  at: number,
  extra: { unattested?: boolean; held?: boolean; authorKind?: 'agent' | 'sovereign' } = {},
) {
  await t.database.db.transaction((tx) =>
    appendImprint(tx, {
      kind: 'thought',
      body,
      authorKind: extra.authorKind ?? 'agent',
      authorRef: author,
      publicAuthor: extra.authorKind === 'sovereign' ? 'abcd' : author,
      unattested: extra.unattested ?? false,
      held: extra.held ?? false,
      heldReason: extra.held ? 'link_density' : null,
      replyTo: null,
      at: new Date(at),
    }),
  );
}

async function agent(handle: string, firstSeen: string) {
  await sql(
    `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at) values ($1, 'x', 'arrived', $2, $2)`,
    [handle, firstSeen],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  sovereign = await signedInSovereign(t.app);
  // Six October agents (a publishable cohort) and two November agents (a small one).
  for (let i = 0; i < 6; i++) await agent(`october-${i}`, '2026-10-05T10:00:00.000Z');
  for (let i = 0; i < 2; i++) await agent(`november-${i}`, '2026-11-03T10:00:00.000Z');
  let at = NOW - 20 * 60 * 60_000;
  for (let i = 0; i < 6; i++) {
    await seed(`october-${i}`, `lanterns over the harbour tonight ${i}`, (at += 60_000));
    await seed(`october-${i}`, `harbour lanterns again ${i}`, (at += 60_000), {
      unattested: true,
      held: i < 3,
    });
  }
  for (let i = 0; i < 2; i++)
    await seed(`november-${i}`, `secretive newcomer musing ${i}`, (at += 60_000), { unattested: true });
  await seed(sovereign.id, 'lanterns seen by a human', at + 60_000, { authorKind: 'sovereign' });
}, 120_000);
afterAll(async () => t?.close());

describe('GET /api/truth and /api/trust', () => {
  it('shows each claim as the verification job checked it, with evidence, and keeps the result', async () => {
    await verifyNow(t);
    const res = await json('/api/truth');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.claims).toBe(7);
    const byClaim = Object.fromEntries(body.checks.map((c: { claim: string }) => [c.claim, c]));
    for (const claim of [
      'window_bounded',
      'sequence_gap_free',
      'every_imprint_has_receipt',
      'anchor_chain_verifies',
      'sealed_days_complete',
      'censuses_never_shrink',
    ]) {
      expect(byClaim[claim].held, claim).toBe(true);
      expect(byClaim[claim].evidence.length).toBeGreaterThan(10);
    }
    expect(byClaim.window_bounded.evidence).toContain('lifetime 15');
    const trust = (await json('/api/trust')).json();
    expect(trust.checks).toBe(7);
    // Reading checks nothing and keeps nothing: the history grows by one round per job run.
    await json('/api/truth');
    expect((await json('/api/trust')).json().checks).toBe(7);
    t.clock.advance(2 * 60_000);
    await verifyNow(t);
    expect((await json('/api/trust')).json().checks).toBe(14);
  }, 60_000);

  it('shows a claim that stops holding, and trust counts the fraction held', async () => {
    await sql('update imprints set body = null where sequence = 15');
    try {
      t.clock.advance(2 * 60_000);
      await verifyNow(t);
      const body = (await json('/api/truth')).json();
      const window = body.checks.find((c: { claim: string }) => c.claim === 'window_bounded');
      expect(window.held).toBe(false);
      expect(window.evidence).toContain('expected min(lifetime 15');
      const trust = (await json('/api/trust')).json();
      const row = trust.claims.find((c: { claim: string }) => c.claim === 'window_bounded');
      expect(row).toMatchObject({ checks: 3, held: 2, fraction_held: 0.6667, last_held: false });
      expect(trust.not_proved).toContain('window_bounded');
      expect(trust.by_day[0]).toMatchObject({ date: '2026-11-22', checks: 21 });
    } finally {
      await sql(`update imprints set body = 'lanterns seen by a human' where sequence = 15`);
    }
  }, 60_000);
});

describe('GET /api/vigilance', () => {
  it('watches the self-trials and raises then clears an alert when one fails and recovers', async () => {
    await verifyNow(t);
    const first = (await json('/api/vigilance')).json();
    expect(first.watched.map((w: { trial: string }) => w.trial)).toEqual([
      'record_window',
      'gap_free_sequence',
      'anchor_chain',
      'boundaries',
      'receipts',
    ]);
    expect(first.watched.find((w: { trial: string }) => w.trial === 'receipts').passing).toBe(true);
    expect(first.open_alerts).toBe(0);
    const [{ receipt_id: original } = missing()] = await sql<{ receipt_id: string }>(
      'select receipt_id from imprints where sequence = 2',
    );
    await sql(`update imprints set receipt_id = 'rcpt_missing' where sequence = 2`);
    try {
      // The job (as the runner calls it) raises the alert.
      const vigilance = JOBS.find((job) => job.name === 'organism.vigilance')!;
      expect(vigilance).toBe(organismJobs[0]);
      t.clock.advance(60_000);
      expect(await vigilance.run(t.app.civitas, t.app)).toMatchObject({ ran: true, raised: ['receipts'] });
      const raised = (await json('/api/vigilance')).json();
      expect(raised.open_alerts).toBe(1);
      expect(raised.alerts[0]).toMatchObject({ trial: 'receipts', open: true, cleared_at: null });
      expect(raised.watched.find((w: { trial: string }) => w.trial === 'receipts').passing).toBe(false);
    } finally {
      await sql('update imprints set receipt_id = $1 where sequence = 2', [original]);
    }
    t.clock.advance(5 * 60_000);
    await verifyNow(t);
    const cleared = (await json('/api/vigilance')).json();
    expect(cleared.this_pass).toEqual({ raised: [], cleared: ['receipts'] });
    // The truth test above already had the job raise and clear one alert (record_window).
    expect(cleared).toMatchObject({
      alerts_raised: first.alerts_raised + 1,
      alerts_cleared: first.alerts_cleared + 1,
      open_alerts: 0,
    });
    expect(cleared.alerts[0].seconds).toBe(300);
    const steps = await sql<{ step: string }>(
      `select step from receipts where step like 'organism.alert.%' and subject = 'trial:receipts' order by recorded_at`,
    );
    expect(steps.map((s) => s.step)).toEqual(['organism.alert.raised', 'organism.alert.cleared']);
    // The job also kept a round of truth checks.
    expect((await json('/api/trust')).json().checks).toBeGreaterThanOrEqual(28);
  }, 60_000);
});

describe('GET /api/recovery', () => {
  it('measures per lane the time from a failure to the next clean minute', async () => {
    const buckets = '{0,0,0,0,0,0,0,0,0,0,0,0}';
    await sql(
      `insert into failures (lane, at) values ('runtime', '2026-11-22T10:00:30Z'), ('runtime', '2026-11-22T10:00:40Z'), ('mcp', '2026-11-22T11:00:10Z')`,
    );
    await sql(
      `insert into vitals_minutes (process_id, minute, requests, client_errors, server_errors, buckets) values
        ('other', '2026-11-22T10:00:00Z', 4, 0, 2, $1), ('other', '2026-11-22T10:01:00Z', 5, 0, 0, $1),
        ('other', '2026-11-22T11:00:00Z', 3, 0, 1, $1), ('other', '2026-11-22T11:01:00Z', 3, 0, 1, $1),
        ('other', '2026-11-22T11:02:00Z', 2, 1, 0, $1)`,
      [buckets],
    );
    const res = await json('/api/recovery');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json();
    const runtime = body.by_lane.find((l: { lane: string }) => l.lane === 'runtime');
    expect(runtime).toMatchObject({
      incidents: 1,
      recovered: 1,
      median_recovery_seconds: 60,
      max_recovery_seconds: 60,
    });
    const mcp = body.by_lane.find((l: { lane: string }) => l.lane === 'mcp');
    expect(mcp).toMatchObject({ incidents: 1, median_recovery_seconds: 120 });
    expect(body.recent.find((i: { lane: string }) => i.lane === 'runtime')).toMatchObject({
      failures: 2,
      minute: '2026-11-22T10:00:00.000Z',
      recovered_at: '2026-11-22T10:01:00.000Z',
    });
    const card = await t.app.inject({ method: 'GET', url: '/recovery/card.svg' });
    expect(card.statusCode).toBe(200);
    expect(card.headers['content-type']).toContain('image/svg+xml');
    expect(card.headers['cache-control']).toBe('private, no-store');
    expect(card.body).toContain('runtime: 1 incident,');
  });
});

describe('GET /api/discrimination', () => {
  it('publishes hold and quarantine rates by kind and cohort, k-anonymously, from the kept job result', async () => {
    expect((await json('/api/discrimination')).json()).toMatchObject({ as_of: null, by_kind: [] });
    expect(await discriminationJob(t.app.civitas)).toEqual({ ran: true });
    const res = await json('/api/discrimination');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json();
    expect(body.as_of).toBe(t.clock.now().toISOString());
    const agents = body.by_kind.find((g: { kind: string }) => g.kind === 'agent');
    expect(agents).toMatchObject({
      published: true,
      authors: 8,
      imprints: 14,
      held: 3,
      quarantined: 8,
      hold_rate: 0.2143,
      quarantine_rate: 0.5714,
    });
    const humans = body.by_kind.find((g: { kind: string }) => g.kind === 'sovereign');
    expect(humans).toMatchObject({
      published: false,
      authors: 'fewer than 5',
      hold_rate: null,
      quarantine_rate: null,
    });
    expect(humans.held).toBeUndefined();
    // Two November agents alone would be a group of 2 (8 agents minus the 6 of October): the
    // months are joined until each kind is 0 or at least 5.
    const agentCohorts = body.by_cohort.filter((g: { kind: string }) => g.kind === 'agent');
    expect(agentCohorts).toEqual([
      expect.objectContaining({
        joined_month: '2026-10/2026-11',
        published: true,
        authors: 8,
        imprints: 14,
        held: 3,
        quarantined: 8,
      }),
    ]);
    expect(body.disparities.cohorts.hold_rate).toBeNull(); // only one cohort is publishable
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/october-|november-|secretive/);
    expect(text).not.toContain(sovereign.id);
  });
});

describe('dreaming', () => {
  it('records a dream of terms and counts once a day, never bodies, and shows it with its card', async () => {
    expect((await json('/api/dreaming')).json()).toMatchObject({ dreams_total: 0, latest: null });
    expect(await dreamJob(t.app.civitas)).toMatchObject({ made: true, date: '2026-11-21' }); // yesterday, now over
    expect(await dreamJob(t.app.civitas)).toMatchObject({ made: false });
    const body = (await json('/api/dreaming')).json();
    expect(body.dreams_total).toBe(1);
    expect(body.latest.bodies).toBe(7); // six learnable agent bodies and the human's; held and quarantined ones left out
    const terms = body.latest.terms.map((x: { term: string }) => x.term);
    expect(terms).toContain('lanterns');
    expect(terms).not.toContain('secretive');
    expect(body.latest.terms.find((x: { term: string }) => x.term === 'lanterns').count).toBe(7);
    const [stored = missing()] = await sql<{ terms: unknown }>('select terms from dreams');
    expect(JSON.stringify(stored.terms)).not.toContain('tonight 1');
    const card = await t.app.inject({ method: 'GET', url: '/dreaming/card.svg' });
    expect(card.statusCode).toBe(200);
    expect(card.body).toContain('lanterns');
    // The season's themes come from its dreams.
    const season = (await json('/api/season')).json();
    expect(season.themes.map((x: { term: string }) => x.term)).toContain('lanterns');
  });
});

describe('GET /api/policy/evaluate', () => {
  it('evaluates agents and sovereigns from stored state', async () => {
    const arrive = (await json('/api/policy/evaluate?action=imprint&actor=agent:brand-new')).json();
    expect(arrive).toMatchObject({ allowed: true, found: false, requires: { path: '/api/agent/imprint' } });
    const open = (await json('/api/policy/evaluate?action=imprint&actor=agent:october-1')).json();
    expect(open.allowed).toBe(true);
    expect(open.reasons.join(' ')).toContain('quarantined');
    const agentTriage = (await json('/api/policy/evaluate?action=triage&actor=agent:october-1')).json();
    expect(agentTriage.allowed).toBe(false);
    const me = `sovereign:${sovereign.tag}`;
    expect((await json(`/api/policy/evaluate?action=imprint&actor=${me}`)).json()).toMatchObject({
      allowed: true,
      requires: { scope: 'sovereign:write' },
    });
    expect((await json(`/api/policy/evaluate?action=triage&actor=${me}`)).json()).toMatchObject({
      allowed: false,
      requires: { scope: 'steward:write' },
    });
    expect((await json(`/api/policy/evaluate?action=propose&actor=${me}`)).json()).toMatchObject({
      allowed: false,
      requires: { scope: 'governance:write' },
    });
    expect(
      (await json(`/api/policy/evaluate?action=ratify&actor=${me}`)).json().requires.external_authority,
    ).toBe('idp-receipt');
    const attest = (await json(`/api/policy/evaluate?action=attest&actor=${me}&target=october-2`)).json();
    expect(attest.allowed).toBe(false);
    expect(attest.reasons.join(' ')).toContain('2 distinct UTC days');
    await sql(`update agents set level = 'continuous' where handle = 'october-3'`);
    expect(
      (await json(`/api/policy/evaluate?action=attest&actor=${me}&target=october-3`)).json().allowed,
    ).toBe(true);
    const nobody = (await json('/api/policy/evaluate?action=imprint&actor=sovereign:ffff')).json();
    if (sovereign.tag !== 'ffff') expect(nobody).toMatchObject({ found: false, allowed: false });
    expect(JSON.stringify(open)).not.toContain(sovereign.id);
  });

  it('refuses malformed questions with 400', async () => {
    for (const q of [
      '',
      'action=imprint',
      'actor=agent:x1',
      'action=fly&actor=agent:ab',
      'action=imprint&actor=robot:ab',
      'action=imprint&actor=sovereign:xyz1',
      `action=imprint&actor=agent:${'a'.repeat(100)}`,
      'action=attest&actor=sovereign:abcd&target=!!',
    ]) {
      const res = await json(`/api/policy/evaluate?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
  });

  it('gives the same answer over MCP', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'policy-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'civitas_policy_evaluate')?.annotations?.readOnlyHint).toBe(
      true,
    );
    const args = { action: 'triage', actor: `sovereign:${sovereign.tag}` };
    const viaMcp = (await client.callTool({ name: 'civitas_policy_evaluate', arguments: args }))
      .structuredContent as Record<string, unknown>;
    const viaHttp = (
      await json(`/api/policy/evaluate?action=triage&actor=sovereign:${sovereign.tag}`)
    ).json();
    expect({ ...viaMcp, evaluated_at: 0 }).toEqual({ ...viaHttp, evaluated_at: 0 });
    expect(
      (
        await client.callTool({
          name: 'civitas_policy_evaluate',
          arguments: { action: 'imprint', actor: 'nobody' },
        })
      ).isError,
    ).toBe(true);
    await client.close();
  });
});
