/**
 * Issue 19: the signing key's kid is the RFC 7638 thumbprint of its public JWK (anyone holding the
 * published key recomputes it), as shared/ledger/keys.ts says; a key stored earlier under another
 * kid keeps it, so what was signed under it still names a published key and still verifies.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServiceKeys } from '../../../api/keys.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import { jwkThumbprint, type Ed25519Jwk } from '../../../shared/ledger/keys.ts';
import { verifyAnchorSignature } from '../../../shared/ledger/anchor.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { agentImprint } from '../../helpers/builders.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('the signing key id', () => {
  it('is the RFC 7638 thumbprint of the published key, and anchors signed with it verify', async () => {
    const jwk = (await t.app.inject({ method: 'GET', url: '/agents.json' })).json().jwks
      .keys[0] as Ed25519Jwk;
    expect(jwk.kid).toBe(await calculateJwkThumbprint(jwk, 'sha256'));
    expect(jwk.kid).toBe(await jwkThumbprint(jwk));
    await agentImprint(t.app, 'kid-check', 'sign me');
    t.clock.set('2026-11-23T00:10:00.000Z');
    await sealDueDays(t.app.civitas);
    const anchor = (
      await t.app.inject({
        method: 'GET',
        url: '/verify/anchor/2026-11-22',
        headers: { accept: 'application/json' },
      })
    ).json();
    const signed = anchor.anchor ?? anchor;
    expect(signed.key_id).toBe(jwk.kid);
    expect(await verifyAnchorSignature(signed, jwk)).toBe(true);
  });

  it('keeps the kid a key was stored with (what was signed under it still names it)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = 'civitas-0a1b2c3d';
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' };
    await t.database.db.query('update signing_keys set retired_at = now() where retired_at is null');
    await t.database.db.query('insert into signing_keys (kid, private_jwk, public_jwk) values ($1, $2, $3)', [
      kid,
      JSON.stringify(privateJwk),
      JSON.stringify({ ...publicJwk, kid, alg: 'EdDSA', use: 'sig' }),
    ]);
    const keys = await loadServiceKeys(t.database.db);
    expect(keys.signing.kid).toBe('civitas-0a1b2c3d');
    await t.database.db.query('delete from signing_keys');
    const fresh = await loadServiceKeys(t.database.db);
    expect(fresh.signing.kid).toBe(await calculateJwkThumbprint(fresh.signing.publicJwk, 'sha256'));
  });
});
