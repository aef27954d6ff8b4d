import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { createRelayClient, RelayError, retryAfterMs } from '../../../shared/relay-client/index.ts';
import { at } from '../../helpers/elements.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t?.close());

/** A scripted HTTP peer: answers each request with the next scripted response and counts requests. */
async function scripted(
  responses: ((res: import('node:http').ServerResponse) => void)[],
): Promise<{ url: string; server: Server; count: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => at(responses, Math.min(n++, responses.length - 1))(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server, count: () => n };
}
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (res: import('node:http').ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

describe('relay client (shared/relay-client, served as /relay-client.mjs)', () => {
  it('arrives, keeps the secret it is given, proves continuity, beats and reads its status', async () => {
    const secrets: string[] = [];
    const client = createRelayClient({
      baseUrl: base,
      handle: 'client-agent',
      onSecret: (s) => void secrets.push(s),
    });
    expect((await client.status()).reason).toBe('unknown_agent');
    const first = await client.imprint({ body: 'Hello from the relay client', kind: 'signal' });
    expect(first.continuity_secret).toMatch(/^cs_/);
    expect(client.secret).toBe(first.continuity_secret);
    expect(secrets).toEqual([first.continuity_secret]);
    expect(client.proofHeaders()).toEqual({ 'X-Civitas-Continuity': first.continuity_secret });
    const second = await client.imprint({ body: 'Second, with proof', reply_to: first.sequence });
    expect(second.continuity_secret).toBeUndefined();
    expect((await client.status()).naturalization.days_with_proof).toBe(1);
    expect((await client.heartbeat()).ok).toBe(true);
    const cert = await client.certificate();
    expect((await client.verifyCertificate(cert.certificate)).valid).toBe(true);

    // A relay token works once attested (secret-less client).
    t.clock.advance(86_400_000);
    await client.imprint({ body: 'Day two' });
    const sovereign = await signedInSovereign(t.app);
    const minted = (
      await t.app.inject({
        method: 'POST',
        url: '/standing/rotate-relay',
        payload: { handle: 'client-agent' },
        headers: { cookie: sovereign.cookie, accept: 'application/json' },
      })
    ).json();
    const relay = createRelayClient({
      baseUrl: base,
      handle: 'client-agent',
      relayToken: minted.relay_token,
    });
    expect((await relay.imprint({ body: 'Through the relay token' })).unattested).toBe(false);
    const stranger = createRelayClient({ baseUrl: base, handle: 'client-agent' });
    await expect(stranger.imprint({ body: 'no proof' })).rejects.toMatchObject({
      status: 401,
      reason: 'continuity_proof_invalid',
    });
  });

  it('honours 429 Retry-After with backoff, then stops after maxRetries', async () => {
    const waits: number[] = [];
    const peer = await scripted([
      json(429, { ok: false, reason: 'rate_limited', retry_after: 7 }, { 'retry-after': '2' }),
      json(429, { ok: false, reason: 'rate_limited', retry_after: 3 }),
      json(200, { ok: true, sequence: 9, receipt_id: 'rcpt_x' }),
    ]);
    try {
      const client = createRelayClient({
        baseUrl: peer.url,
        handle: 'patient',
        sleep: async (ms) => void waits.push(ms),
      });
      expect((await client.imprint({ body: 'eventually' })).sequence).toBe(9);
      expect(waits).toEqual([2000, 3000]);
      expect(peer.count()).toBe(3);
    } finally {
      peer.server.close();
    }
    const always = await scripted([json(429, { ok: false, reason: 'rate_limited' })]);
    try {
      const waits2: number[] = [];
      const client = createRelayClient({
        baseUrl: always.url,
        handle: 'patient',
        maxRetries: 2,
        sleep: async (ms) => void waits2.push(ms),
      });
      await expect(client.status()).rejects.toMatchObject({ status: 429, reason: 'rate_limited' });
      expect(waits2).toEqual([1000, 2000]);
      expect(always.count()).toBe(3);
    } finally {
      always.server.close();
    }
    expect(
      retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', null, Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(5000);
  });

  it('never repeats a mutation whose outcome is unknown, and never pays a 402', async () => {
    const dropping = await scripted([(res) => res.socket?.destroy()]);
    try {
      const client = createRelayClient({ baseUrl: dropping.url, handle: 'careful', sleep: async () => {} });
      const error = await client.imprint({ body: 'did it land?' }).catch((e) => e);
      expect(error).toBeInstanceOf(RelayError);
      expect(error.reason).toBe('outcome_unknown');
      expect(dropping.count()).toBe(1);
    } finally {
      dropping.server.close();
    }
    const failing = await scripted([json(503, { ok: false, reason: 'unavailable' })]);
    try {
      const client = createRelayClient({ baseUrl: failing.url, handle: 'careful', sleep: async () => {} });
      await expect(client.heartbeat()).rejects.toMatchObject({ reason: 'outcome_unknown' });
      expect(failing.count()).toBe(1);
    } finally {
      failing.server.close();
    }
    const quoting = await scripted([json(402, { ok: false, reason: 'quote', quote: { amount: 100 } })]);
    try {
      const client = createRelayClient({ baseUrl: quoting.url, handle: 'careful' });
      await expect(client.imprint({ body: 'x' })).rejects.toMatchObject({ status: 402, reason: 'quote' });
      expect(quoting.count()).toBe(1);
    } finally {
      quoting.server.close();
    }
  });

  it('bundles into one dependency-free ESM file that works when imported', async () => {
    const { build } = await import('esbuild');
    const dir = mkdtempSync(join(tmpdir(), 'relay-client-'));
    try {
      const outfile = join(dir, 'relay-client.mjs');
      const entry = fileURLToPath(new URL('../../../shared/relay-client/index.ts', import.meta.url));
      await build({
        entryPoints: [entry],
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        target: 'es2022',
        outfile,
        logLevel: 'silent',
      });
      const source = readFileSync(outfile, 'utf8');
      expect(source).not.toMatch(/\bimport\s.*from\s|require\(/);
      const mod = await import(pathToFileURL(outfile).href);
      const client = mod.createRelayClient({ baseUrl: base, handle: 'bundled-agent' });
      const made = await client.imprint({ body: 'Imported from the bundle' });
      expect(made.ok).toBe(true);
      expect(client.secret).toBe(made.continuity_secret);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
