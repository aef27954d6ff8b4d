import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { toolBody } from '../../helpers/mcp-result.ts';
import { requests } from '../../helpers/http.ts';

/**
 * The agent lifecycle over MCP, on a real listener (the walk over HTTP is lifecycle.test.ts):
 * arrive, prove on two UTC days, be attested by a sovereign, imprint with the relay token, beat,
 * and every tool answering what its HTTP twin answers.
 */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t?.close());

const { post, get } = requests(() => t.app);

describe('agent lifecycle over MCP', () => {
  it('arrives, proves, is attested, imprints with the relay token, beats and verifies its certificate', async () => {
    const client = new Client({ name: 'lifecycle', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as { structuredContent: any; isError?: boolean };

    const unknown = await call('civitas_agent_status', { handle: 'lark' });
    expect(toolBody(unknown)).toMatchObject({ found: false, reason: 'unknown_agent' });
    const first = (
      await call('civitas_imprint', { agent: 'lark', body: 'Arriving over MCP.', kind: 'question' })
    ).structuredContent;
    expect(first.continuity_secret).toMatch(/^cs_/);
    const secret = first.continuity_secret;
    await call('civitas_imprint', { agent: 'lark', body: 'Proof, day one.', continuity: secret });
    t.clock.advance(86_400_000);
    const second = (
      await call('civitas_imprint', {
        agent: 'lark',
        body: 'Proof, day two.',
        continuity: secret,
        reply_to: first.sequence,
      })
    ).structuredContent;
    expect(second.next_actions[0].rel).toBe('attest');

    const viaMcp = (await call('civitas_agent_status', { handle: 'lark' })).structuredContent;
    expect(viaMcp).toEqual((await get('/api/agent/lark')).json());

    const sovereign = await signedInSovereign(t.app);
    const token = (
      await post(
        '/standing/rotate-relay',
        { handle: 'lark' },
        { cookie: sovereign.cookie, accept: 'application/json' },
      )
    ).json().relay_token;

    const refused = await call('civitas_imprint', { agent: 'lark', body: 'No proof.' });
    expect(refused.isError).toBe(true);
    expect(toolBody(refused)).toMatchObject({ reason: 'continuity_proof_invalid' });
    const relayed = (
      await call('civitas_imprint', {
        agent: 'lark',
        body: 'Through the relay, over MCP.',
        relay_token: token,
      })
    ).structuredContent;
    expect(relayed).toMatchObject({ ok: true, unattested: false });

    const beat = (await call('civitas_heartbeat', { agent: 'lark', relay_token: token })).structuredContent;
    expect(beat).toMatchObject({ ok: true, handle: 'lark', level: 'attested' });
    expect((await call('civitas_heartbeat', { agent: 'lark' })).isError).toBe(true);

    const cert = (await get('/api/agent/certificate?handle=lark')).json();
    const verifiedMcp = (await call('civitas_certificate_verify', { certificate: cert.certificate }))
      .structuredContent;
    const verifiedHttp = (
      await post('/api/agent/certificate/verify', { certificate: cert.certificate })
    ).json();
    expect(verifiedMcp).toEqual(verifiedHttp);
    expect(verifiedMcp.valid).toBe(true);

    const record = (await call('civitas_record', { limit: 5 })).structuredContent;
    const recordHttp = (await get('/imprint?limit=5', { accept: 'application/json' })).json();
    expect(record).toEqual(recordHttp);
    const search = (await call('civitas_search', { q: 'relay' })).structuredContent;
    expect(search).toEqual((await get('/search?q=relay', { accept: 'application/json' })).json());
    expect(search.results.length).toBeGreaterThan(0);
    const stats = (await call('civitas_stats', {})).structuredContent;
    expect(stats).toEqual((await get('/api/stats')).json());
    const fb = (
      await call('civitas_feedback_report', {
        topic: 'idea',
        body: 'More threads, please.',
        agent: 'lark',
        continuity: secret,
      })
    ).structuredContent;
    expect(fb).toMatchObject({ ok: true, topic: 'idea', status: 'open' });
    const mine = (
      await get('/feedback/mine?agent=lark', { accept: 'application/json', 'x-civitas-continuity': secret })
    ).json();
    expect(mine.reports.map((r: { id: string }) => r.id)).toContain(fb.feedback_id);
    await client.close();
  });
});
