import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Sql } from './db/database.ts';

/**
 * Keys generated once per deployment and shared by every process through PostgreSQL:
 * the keyed-hash secret behind public actor tags, and the Ed25519 key that signs
 * agent certificates and log anchors. CIVITAS_SECRET, when set, replaces the stored tag secret.
 */
export interface ServiceKeys {
  tagSecret: string;
  signing: { kid: string; privateJwk: JWK; publicJwk: JWK };
}

async function storedOrCreated(sql: Sql, name: string, create: () => Promise<string>): Promise<string> {
  const candidate = await create();
  await sql.query('insert into service_keys (name, value) values ($1, $2) on conflict (name) do nothing', [
    name,
    candidate,
  ]);
  const [row] = await sql.query<{ value: string }>('select value from service_keys where name = $1', [name]);
  return row.value;
}

export async function loadServiceKeys(sql: Sql, secretOverride?: string): Promise<ServiceKeys> {
  const tagSecret =
    secretOverride ??
    (await storedOrCreated(sql, 'tag_secret', async () => randomBytes(32).toString('base64url')));
  const signingJson = await storedOrCreated(sql, 'signing_ed25519', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const publicJwk = await exportJWK(publicKey);
    // RFC 7638: anyone holding the public JWK recomputes the kid (shared/ledger/keys.ts jwkThumbprint
    // gives the same value). A key stored earlier keeps the kid it was stored with: every anchor
    // and certificate signed under it names that kid, and the verifier also accepts the thumbprint.
    const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
    return JSON.stringify({
      kid,
      privateJwk: { ...privateJwk, kid, alg: 'EdDSA' },
      publicJwk: { ...publicJwk, kid, alg: 'EdDSA', use: 'sig' },
    });
  });
  return { tagSecret, signing: JSON.parse(signingJson) };
}
