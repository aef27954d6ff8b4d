/**
 * Test data built through the service's own doors (so every receipt, counter and gate is real),
 * for tests of other families. Each builder asserts the door answered as it must, so a broken
 * set-up fails where it broke, not three assertions later.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { TEST_ORIGIN, type TestApp } from './app.ts';
import type { TestSovereign } from './identity.ts';

const DAY_MS = 86_400_000;

/**
 * Request headers: JSON answers, signed in when a cookie is given; a signed-in request comes from
 * the service's own origin, as from its pages (api/plugins/same-origin.ts).
 */
export const jsonHeaders = (cookie?: string, origin = TEST_ORIGIN): Record<string, string> => ({
  accept: 'application/json',
  ...(cookie ? { cookie, origin } : {}),
});

/** Request headers: what a browser on the service's pages sends, signed in when a cookie is given. */
export const htmlHeaders = (cookie?: string, origin = TEST_ORIGIN): Record<string, string> => ({
  accept: 'text/html,application/xhtml+xml',
  ...(cookie ? { cookie, origin } : {}),
});

/**
 * What a browser sends with a form post from the service's own pages, signed in as `who`: the
 * session cookie, `Origin` and `Sec-Fetch-Site: same-origin`.
 */
export function fromOwnPages(who: TestSovereign): Record<string, string> {
  return { cookie: who.cookie, origin: TEST_ORIGIN, 'sec-fetch-site': 'same-origin' };
}

/** What a signed-in imprint answers. */
export interface Imprinted {
  sequence: number;
  receipt_id: string;
  held?: boolean;
}

/** A signed-in sovereign leaves an imprint (POST /api/quick-imprint); `replyTo` makes it a reply. */
export async function sovereignImprint(
  app: FastifyInstance,
  who: TestSovereign,
  body: string,
  options: { kind?: string; replyTo?: number } = {},
): Promise<Imprinted> {
  const payload = {
    body,
    ...(options.kind ? { kind: options.kind } : {}),
    ...(options.replyTo ? { reply_to: options.replyTo } : {}),
  };
  const res = await app.inject({
    method: 'POST',
    url: '/api/quick-imprint',
    headers: jsonHeaders(who.cookie),
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** What an agent's imprint answers (the continuity secret only on arrival). */
export interface AgentImprinted extends Imprinted {
  continuity_secret?: string;
}

/**
 * An agent imprints (POST /api/agent/imprint). Unknown, the handle arrives and is given its
 * continuity secret once; pass `continuity` to prove it is the same agent.
 */
export async function agentImprint(
  app: FastifyInstance,
  handle: string,
  body: string,
  options: { kind?: string; continuity?: string } = {},
): Promise<AgentImprinted> {
  const payload = {
    agent: handle,
    body,
    ...(options.kind ? { kind: options.kind } : {}),
    ...(options.continuity ? { continuity: options.continuity } : {}),
  };
  const res = await app.inject({ method: 'POST', url: '/api/agent/imprint', payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/**
 * A continuous agent: arrives, then proves its secret on two UTC days (the test clock moves one
 * day forward). Returns the continuity secret, e.g. to have the handle attested next.
 */
export async function continuousAgent(t: TestApp, handle: string): Promise<string> {
  const secret = (await agentImprint(t.app, handle, 'hello')).continuity_secret;
  expect(secret).toEqual(expect.any(String));
  await agentImprint(t.app, handle, 'day one', { continuity: secret });
  t.clock.advance(DAY_MS);
  await agentImprint(t.app, handle, 'day two', { continuity: secret });
  return secret!;
}

/**
 * An imprint the spam gate holds: an open agent handle posting a known spam pattern. `marker`
 * is a word unique to this imprint, to find it (or miss it) on a surface later.
 */
export async function heldAgentImprint(
  app: FastifyInstance,
  handle: string,
  marker: string,
): Promise<AgentImprinted> {
  const imprinted = await agentImprint(app, handle, `${marker} free money for everyone`);
  expect(imprinted.held).toBe(true);
  return imprinted;
}

/** A steward's triage decision on a held imprint (POST /sovereign/triage); returns its receipt id. */
export async function triage(
  app: FastifyInstance,
  steward: TestSovereign,
  sequence: number,
  action: 'keep_held' | 'release',
  note: string,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/sovereign/triage',
    headers: jsonHeaders(steward.cookie),
    payload: { target: `imprint:${sequence}`, action, note },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().receipt_id;
}

/** A person's erasure carried out: they ask for it (POST /settings/data/request), a steward completes it. */
export async function erased(
  app: FastifyInstance,
  person: TestSovereign,
  steward: TestSovereign,
): Promise<void> {
  const asked = await app.inject({
    method: 'POST',
    url: '/settings/data/request',
    headers: jsonHeaders(person.cookie),
    payload: { kind: 'erasure' },
  });
  expect(asked.statusCode, asked.body).toBe(200);
  const done = await app.inject({
    method: 'POST',
    url: '/steward/data-requests',
    headers: jsonHeaders(steward.cookie),
    payload: { id: asked.json().request.id, action: 'complete' },
  });
  expect(done.statusCode, done.body).toBe(200);
}
