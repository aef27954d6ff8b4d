import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dreamJob } from '../../../../api/organism/themes/dreaming.ts';
import { discriminationJob } from '../../../../api/organism/checks/discrimination.ts';
import type { TestApp } from '../../../helpers/app.ts';
import type { TestSovereign } from '../../../helpers/identity.ts';
import { requests } from '../../../helpers/http.ts';
import { missing } from '../../../helpers/elements.ts';
import { seededCohorts } from './cohorts.ts';

/**
 * What the organism concludes from a seeded population (cohorts.ts): hold and quarantine rates by
 * kind and cohort, k-anonymously; a dream of terms and counts, never bodies; and what policy allows
 * an actor, over HTTP and MCP alike. Its checks on itself are checks.test.ts.
 */
let t: TestApp;
let sovereign: TestSovereign;

const { get: json, raw } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);

beforeAll(async () => {
  ({ t, sovereign } = await seededCohorts());
}, 120_000);
afterAll(async () => t?.close());

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
    const card = await raw('/dreaming/card.svg');
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
