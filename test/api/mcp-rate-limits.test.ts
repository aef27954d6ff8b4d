/**
 * /mcp under its rate limits: a 429 is a JSON-RPC error envelope carrying the retry guidance and
 * Retry-After, and write tools (every tool not marked read-only) spend the write budget while reads
 * keep their own. Each limit has an app of its own, configured tight.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesState } from '../../api/mcp/endpoint.ts';
import { MCP_TOOLS } from '../../api/families.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { missing } from '../helpers/elements.ts';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('a 429 on /mcp', () => {
  let limited: TestApp;
  let limitedBase: string;
  beforeAll(async () => {
    limited = await createTestApp({ config: { rateReadsPerMin: 2 } });
    limitedBase = await limited.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => limited?.close());

  it('answers a JSON-RPC error envelope with the retry guidance and keeps Retry-After', async () => {
    const send = () =>
      fetch(`${limitedBase}/mcp`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
      });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const res = await send();
    await expectRateLimitedEnvelope(res, 9);
  });
});

describe('write tools on /mcp spend the write budget', () => {
  const WRITES = 2;
  let limited: TestApp;
  let limitedBase: string;
  beforeAll(async () => {
    limited = await createTestApp({ config: { rateWritesPerMin: WRITES } });
    limitedBase = await limited.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => limited?.close());

  async function count(sql: string, params: unknown[] = []): Promise<number> {
    const [row = missing()] = await limited.database.db.query<{ n: string | number }>(sql, params);
    return Number(row.n);
  }
  const feedbackRows = () => count('select count(*) as n from feedback');
  const imprintsBy = (agent: string) =>
    count('select count(*) as n from imprints where public_author = $1', [agent]);

  it('charges exactly the tools not marked read-only, the imprint, heartbeat and feedback tools among them', () => {
    const writers = MCP_TOOLS.filter((tool) =>
      changesState({ method: 'tools/call', params: { name: tool.name } }, MCP_TOOLS),
    ).map((tool) => tool.name);
    expect(writers).toEqual(
      MCP_TOOLS.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name),
    );
    expect(writers).toEqual(
      expect.arrayContaining(['civitas_imprint', 'civitas_heartbeat', 'civitas_feedback_report']),
    );
    expect(changesState({ method: 'tools/list' }, MCP_TOOLS)).toBe(false);
  });

  it(`refuses the write tool call after ${WRITES} with the 429 envelope, records nothing, and still answers read tools`, async () => {
    const client = new Client({ name: 'civitas-budget-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${limitedBase}/mcp`)));
    const feedbackBefore = await feedbackRows();

    const feedback = await client.callTool({
      name: 'civitas_feedback_report',
      arguments: { topic: 'idea', body: 'within the write budget' },
    });
    expect(feedback.isError).toBeFalsy();
    const imprint = await client.callTool({
      name: 'civitas_imprint',
      arguments: { agent: 'budget-first', body: 'within the write budget' },
    });
    expect(imprint.isError).toBeFalsy();
    expect(await feedbackRows()).toBe(feedbackBefore + 1);
    expect(await imprintsBy('budget-first')).toBe(1);

    // The SDK's client surfaces the HTTP 429 as a transport error carrying our envelope.
    const refused = await client
      .callTool({ name: 'civitas_imprint', arguments: { agent: 'budget-over', body: 'one write too many' } })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(Error);
    expect(String((refused as Error).message)).toContain('rate_limited');
    const refusedFeedback = await client
      .callTool({ name: 'civitas_feedback_report', arguments: { topic: 'idea', body: 'one write too many' } })
      .catch((caught: unknown) => caught);
    expect(refusedFeedback).toBeInstanceOf(Error);
    expect(await imprintsBy('budget-over')).toBe(0);
    expect(await count('select count(*) as n from agents where handle = $1', ['budget-over'])).toBe(0);
    expect(await feedbackRows()).toBe(feedbackBefore + 1);

    // Reads keep their own, larger budget.
    const status = await client.callTool({
      name: 'civitas_agent_status',
      arguments: { handle: 'budget-first' },
    });
    expect(status.isError).toBeFalsy();
    expect((await client.listTools()).tools.length).toBe(MCP_TOOLS.length);
    await client.close();

    // On the wire: the same JSON-RPC envelope and Retry-After as any 429 on /mcp.
    const res = await fetch(`${limitedBase}/mcp`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'civitas_feedback_report', arguments: { topic: 'bug', body: 'still over' } },
      }),
    });
    await expectRateLimitedEnvelope(res, 3);
    expect(await feedbackRows()).toBe(feedbackBefore + 1);
  });
});

/** A 429 on /mcp: Retry-After kept, the JSON-RPC envelope carrying the retry guidance and the request's id. */
async function expectRateLimitedEnvelope(res: Response, id: number) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  const body = await res.json();
  expect(body).toMatchObject({
    jsonrpc: '2.0',
    id,
    error: { code: -32000, data: { ok: false, reason: 'rate_limited', retry_after: retryAfter } },
  });
  expect(body.error.message).toContain('retry_after');
}
