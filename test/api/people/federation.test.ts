import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { parseFederationPeers } from '../../../api/config.ts';
import { requests } from '../../helpers/http.ts';
import { missing } from '../../helpers/elements.ts';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

let bare: TestApp;
let peered: TestApp;
let peerKey: Key;
let strangerKey: Key;

beforeAll(async () => {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  peerKey = pair.privateKey;
  strangerKey = (await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })).privateKey;
  const x = (await exportJWK(pair.publicKey)).x!;
  const federationPeers = parseFederationPeers(
    JSON.stringify([{ name: 'peer-one', origin: 'https://peer-one.example/', public_key: x }]),
  );
  bare = await createTestApp();
  peered = await createTestApp({ config: { federationPeers } });
});
afterAll(async () => {
  await bare?.close();
  await peered?.close();
});

let counter = 0;
async function relay(
  t: TestApp,
  claims: Record<string, unknown> = {},
  options: { key?: Key; kid?: string; iss?: string; aud?: string; iat?: number } = {},
) {
  const now = Math.floor(t.clock.now().getTime() / 1000);
  const { jti = `relay-${++counter}-abcdef`, ...rest } = claims;
  return new SignJWT({ topic: 'idea', body: 'A relayed idea from a peer', ...rest })
    .setProtectedHeader({ alg: 'EdDSA', kid: options.kid ?? 'peer-one' })
    .setIssuer(options.iss ?? 'peer-one')
    .setAudience(options.aud ?? TEST_ORIGIN)
    .setIssuedAt(options.iat ?? now)
    .setJti(String(jti))
    .sign(options.key ?? peerKey);
}

const send = (t: TestApp, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/federation/feedback-relay', payload: payload as object });
const get = (t: TestApp, url: string) => requests(() => t.app).get(url);

describe('federation without peers', () => {
  it('lists no peers and refuses every relay with 403 and a clear reason', async () => {
    const view = (await get(bare, '/api/federation')).json();
    expect(view).toMatchObject({ ok: true, accepts_relays: false, peers: [] });
    const res = await send(bare, { jws: await relay(bare) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ ok: false, reason: 'peer_refused', cause: 'no_peers_configured' });
    expect(res.json().hint).toMatch(/No federation peers are configured/);
    const [{ n } = missing()] = await bare.database.db.query<{ n: string }>(
      'select count(*) as n from federation_relays',
    );
    expect(Number(n)).toBe(0);
  });
});

describe('federation with a configured peer', () => {
  it('accepts a relay signed by the peer key, once, with a receipt', async () => {
    const jws = await relay(peered, { jti: 'first-relay-0001', author: 'agent:far-away' });
    const res = await send(peered, { jws });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, peer: 'peer-one', topic: 'idea' });
    expect(body.receipt_id).toMatch(/^rcpt_/);
    expect((await get(peered, `/api/receipt/${body.receipt_id}`)).statusCode).toBe(200);
    const again = await send(peered, { jws });
    expect(again.statusCode).toBe(409);
    expect(again.json().cause).toBe('replayed');
    const view = (await get(peered, '/api/federation')).json();
    expect(view).toMatchObject({
      accepts_relays: true,
      peers: [{ name: 'peer-one', origin: 'https://peer-one.example', relays: 1 }],
    });
    expect(view.peers[0].last_relay_at).toBe(peered.clock.now().toISOString());
  });

  it('refuses a concurrent replay: exactly one of two identical relays is applied', async () => {
    const jws = await relay(peered, { jti: 'concurrent-relay-01' });
    const results = await Promise.all([send(peered, { jws }), send(peered, { jws })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('refuses wrong keys, unknown peers, wrong audience, stale relays and garbage with 403', async () => {
    const now = Math.floor(peered.clock.now().getTime() / 1000);
    const cases: [string, string][] = [
      ['signature_invalid', await relay(peered, {}, { key: strangerKey })],
      ['unknown_peer', await relay(peered, {}, { kid: 'peer-two' })],
      ['claims_invalid', await relay(peered, {}, { aud: 'https://elsewhere.example' })],
      ['claims_invalid', await relay(peered, {}, { iss: 'peer-two' })],
      ['claims_invalid', await relay(peered, {}, { iat: now - 3600 })],
      ['jws_invalid', 'not.a.jws'],
      ['jws_invalid', 'garbage'],
    ];
    for (const [cause, jws] of cases) {
      const res = await send(peered, { jws });
      expect(res.statusCode, cause).toBe(403);
      expect(res.json(), cause).toMatchObject({ reason: 'peer_refused', cause });
    }
  });

  it('refuses malformed bodies and claims with 400, never a 500', async () => {
    for (const payload of [{}, { jws: '' }, { jws: 'x'.repeat(20_000) }, { jws: 42 }]) {
      const res = await send(peered, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
    }
    for (const claims of [
      { topic: 'gossip' },
      { body: '' },
      { body: 'x'.repeat(4001) },
      { author: 'raw-id-1234' },
    ]) {
      const res = await send(peered, { jws: await relay(peered, claims) });
      expect(res.statusCode, JSON.stringify(claims).slice(0, 40)).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
  });

  it('federated cohorts count relayed authors per peer and month, k-anonymously, without origin:node keys', async () => {
    for (let i = 0; i < 5; i++) {
      expect(
        (await send(peered, { jws: await relay(peered, { author: `agent:remote-${i}` }) })).statusCode,
      ).toBe(200);
      const view = (await get(peered, '/api/cohorts/federated')).json();
      const month = peered.clock.now().toISOString().slice(0, 7);
      // agent:far-away from the first test plus remote-0..i
      const members = i + 2;
      // Humans and agents apart (INTERFACE.md item 2): every relayed author here is an agent.
      expect(view.cohorts).toEqual([
        { peer: 'peer-one', month, humans: 'fewer than 5', agents: members < 5 ? 'fewer than 5' : members },
      ]);
      expect(JSON.stringify(view.cohorts)).not.toMatch(/peer-one\.example|remote-|far-away/);
    }
  });

  it('refuses malformed peer configuration at start-up', () => {
    expect(() => parseFederationPeers('[{"name":"x","origin":"nope","public_key":"short"}]')).toThrow();
    expect(parseFederationPeers('')).toEqual([]);
  });
});
