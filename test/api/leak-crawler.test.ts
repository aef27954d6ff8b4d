/**
 * The leak crawler: nothing private on any public surface.
 *
 * Seeds the database with sovereigns, agents, emails, secrets, held spam, private notes and
 * denials, each carrying a unique sentinel (and the real private values the service generated:
 * raw sovereign ids, keys, secret and key hashes, session values). Then it requests every
 * published GET route of the registry (path parameters filled from the seeded data), as an
 * anonymous visitor and as a signed-in stranger, in JSON and in the default representation, and
 * calls every read-only MCP tool, and asserts that no sentinel appears in any body or header.
 *
 * Seeding (./leak-crawler-seed.ts) goes through the API where the route exists and falls back to the store where it does
 * not yet (each fallback is listed in `seeded` and printed), so the crawl grows by itself: a route
 * answering 501 today leaks nothing; the day it is built, it is crawled with real data.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_ROUTES, fillPath, isStaticPlaceholder, pathParams } from '../../shared/registry/index.ts';
import { MCP_TOOLS } from '../../api/families.ts';
import type { TestApp } from '../helpers/app.ts';
import type { TestSovereign } from '../helpers/identity.ts';
import { mark, seedPrivateValues, type Secret } from './leak-crawler-seed.ts';
import { entry } from '../helpers/elements.ts';

let t: TestApp;
let secrets: Secret[];
let owner: TestSovereign;
let stranger: TestSovereign;
let agentHandle: string;
let receiptId: string;
let sequence: number;
let today: string;

beforeAll(async () => {
  ({ t, secrets, owner, stranger, agentHandle, receiptId, sequence, today } = await seedPrivateValues());
}, 120_000);

afterAll(async () => t?.close());

function findLeaks(text: string): string[] {
  const lower = text.toLowerCase();
  return secrets.filter((secret) => lower.includes(secret.value.toLowerCase())).map((secret) => secret.what);
}

/** Candidate values for each path parameter, from the seeded data. */
function paramValues(): Record<string, string[]> {
  return {
    id: [receiptId, String(sequence)],
    handle: [agentHandle],
    entity: [`agent:${agentHandle}`, `sovereign:${owner.tag}`, `imprint:${sequence}`],
    token: [receiptId],
    tag: [owner.tag, 'v0.1.0'],
    claim: [receiptId],
    surface: ['record'],
    date: [today],
    release: ['1'],
  };
}

function urlsFor(path: string, publicActor: boolean): string[] {
  const names = pathParams(path);
  const values = paramValues();
  let filled: Record<string, string>[] = [{}];
  for (const name of names)
    filled = filled.flatMap((partial) =>
      (values[name] ?? ['x']).map((value) => ({ ...partial, [name]: value })),
    );
  const urls = filled.map((params) => fillPath(path, params));
  const queries = ['', `?handle=${agentHandle}`];
  if (publicActor) queries.push(`?actor=agent:${agentHandle}`, `?actor=sovereign:${owner.tag}`);
  return urls.flatMap((url) => queries.map((query) => url + query));
}

describe('leak crawler', () => {
  it('seeded private values to look for', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(20);
    expect(secrets.some((s) => s.what === 'continuity secret')).toBe(true);
    expect(secrets.some((s) => s.what === 'held spam body')).toBe(true);
    expect(secrets.some((s) => s.what === 'due feed token')).toBe(true);
    expect(secrets.some((s) => s.what === 'confluence slug')).toBe(true);
  });

  it('finds no sentinel on any published GET route, anonymous or as a signed-in stranger', async () => {
    const routes = PUBLISHED_ROUTES.filter(
      (route) => route.methods.includes('GET') && !isStaticPlaceholder(route.path),
    );
    expect(routes.length).toBeGreaterThan(150);
    const leaks: string[] = [];
    const statuses = new Map<number, number>();
    let requests = 0;
    for (const route of routes) {
      for (const url of urlsFor(route.path, route.publicActor === 'required')) {
        for (const cookie of [undefined, stranger.cookie]) {
          for (const accept of ['application/json', 'text/html,*/*']) {
            const headers: Record<string, string> = { accept };
            if (cookie) headers.cookie = cookie;
            const res = await t.app.inject({ method: 'GET', url, headers });
            requests += 1;
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            const found = findLeaks(`${JSON.stringify(res.headers)}\n${res.body}`);
            if (found.length)
              leaks.push(
                `${url} (${cookie ? 'stranger' : 'anonymous'}, ${accept}, ${res.statusCode}): ${found.join(', ')}`,
              );
          }
        }
      }
    }
    console.info(
      `leak crawler: ${requests} requests over ${routes.length} GET routes; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(leaks).toEqual([]);
  }, 180_000);

  it('finds no sentinel in any read-only MCP tool', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'leak-crawler', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const values = paramValues();
    const argumentFor = (name: string): unknown => {
      if (name === 'limit') return 50;
      if (name in values) return entry(values, name)[0];
      if (name === 'query' || name === 'q') return 'thought';
      return undefined;
    };
    try {
      const { tools } = await client.listTools();
      const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint === true);
      expect(readOnly.length).toBeGreaterThanOrEqual(
        MCP_TOOLS.filter((tool) => tool.annotations?.readOnlyHint).length,
      );
      const leaks: string[] = [];
      for (const tool of readOnly) {
        const args: Record<string, unknown> = {};
        for (const name of Object.keys(tool.inputSchema.properties ?? {})) {
          const value = argumentFor(name);
          if (value !== undefined) args[name] = value;
        }
        const result = await client.callTool({ name: tool.name, arguments: args });
        const found = findLeaks(JSON.stringify(result));
        if (found.length) leaks.push(`${tool.name}: ${found.join(', ')}`);
      }
      expect(leaks).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('crawls a current confluence (so the confluence surfaces were read with real data)', async () => {
    const presence = await t.app.inject({
      method: 'GET',
      url: '/api/presence',
      headers: { accept: 'application/json' },
    });
    expect(presence.json().confluences).toEqual([
      expect.objectContaining({
        title: 'An open gathering for the crawl',
        participants: { humans: 5, agents: 'fewer than 5' },
      }),
    ]);
  });

  it('catches a planted leak (the crawler is not blind)', async () => {
    expect(findLeaks(`{"note":"${mark('steward-note')}"}`)).toEqual(['steward note']);
    expect(findLeaks(JSON.stringify({ id: owner.id.toUpperCase() }))).toContain('owner raw sovereign id');
  });
});
