import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Sql } from './db/database.ts';
import { one } from './db/rows.ts';
import type { Row } from './db/kysely.ts';

/**
 * Keys generated once per deployment and shared by every process through PostgreSQL: the
 * keyed-hash secret behind public actor tags, and the Ed25519 signing keys (table signing_keys)
 * that sign agent certificates and log anchors. Exactly one signing key is active; `npm run
 * keys:rotate` retires it and makes a new one active. Retired keys keep verifying what they signed,
 * looked up by the kid that signature names. CIVITAS_SECRET, when set, replaces the stored tag secret.
 */
export interface SigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export interface ServiceKeys {
  tagSecret: string;
  /** the active key: everything signed from now on */
  signing: SigningKey;
  /** public JWKs by kid, active and retired: what verification looks a signature's kid up in */
  verifying: Map<string, JWK>;
  /** the JWKS (/agents.json): the active key, then the retired keys that still vouch for something */
  published: JWK[];
}

/** How long a process may keep signing with a key after another process rotated it (api/app.ts). */
export const KEY_REFRESH_MS = 60_000;

/**
 * A retired key stays published while it vouches for something: forever when it signed an anchor
 * (the Record is permanent), else for this long after retirement, the lifetime of the last agent
 * certificate it can have signed (api/agents/certificate.ts CERTIFICATE_TTL_SECONDS).
 */
export const RETIRED_CERTIFICATE_DAYS = 7;

async function storedOrCreated(sql: Sql, name: string, create: () => Promise<string>): Promise<string> {
  const candidate = await create();
  await sql.query('insert into service_keys (name, value) values ($1, $2) on conflict (name) do nothing', [
    name,
    candidate,
  ]);
  const row = one(
    await sql.kysely.selectFrom('service_keys').select('value').where('name', '=', name).execute(),
  );
  return row.value;
}

/** A fresh Ed25519 key whose kid is its RFC 7638 thumbprint (shared/ledger/keys.ts jwkThumbprint agrees). */
export async function newSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  return {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' },
    publicJwk: { ...publicJwk, kid, alg: 'EdDSA', use: 'sig' },
  };
}

async function insertKey(sql: Sql, key: SigningKey): Promise<void> {
  // Any unique violation (the kid, or a second active row from a concurrent first start) is a no-op.
  await sql.query(
    'insert into signing_keys (kid, private_jwk, public_jwk) values ($1, $2, $3) on conflict do nothing',
    [key.kid, JSON.stringify(key.privateJwk), JSON.stringify(key.publicJwk)],
  );
}

/** A stored key and what its retirement means now: still signing, still published. */
type KeyRow = Pick<Row<'signing_keys'>, 'kid' | 'private_jwk' | 'public_jwk'> & {
  active: boolean;
  published: boolean;
};

const json = (value: JWK | string): JWK => (typeof value === 'string' ? (JSON.parse(value) as JWK) : value);

/** The signing keys as stored: generates the first one when there is none. */
export async function loadSigningKeys(
  sql: Sql,
  now: Date = new Date(),
): Promise<Omit<ServiceKeys, 'tagSecret'>> {
  for (let attempt = 0; ; attempt++) {
    const rows = await sql.query<KeyRow>(
      `select k.kid, k.private_jwk, k.public_jwk, k.retired_at is null as active,
         (k.retired_at is null or k.retired_at > $1::timestamptz - make_interval(days => $2)
          or exists (select 1 from anchors a where a.key_id = k.kid)) as published
       from signing_keys k order by k.retired_at is null desc, k.created_at desc, k.kid`,
      [now.toISOString(), RETIRED_CERTIFICATE_DAYS],
    );
    const active = rows.find((row) => row.active);
    if (!active) {
      if (attempt > 0) throw new Error('signing_keys holds no active key');
      await insertKey(sql, await newSigningKey());
      continue;
    }
    return {
      signing: { kid: active.kid, privateJwk: json(active.private_jwk), publicJwk: json(active.public_jwk) },
      verifying: new Map(rows.map((row) => [row.kid, json(row.public_jwk)])),
      published: rows.filter((row) => row.published).map((row) => json(row.public_jwk)),
    };
  }
}

export async function loadServiceKeys(sql: Sql, secretOverride?: string, now?: Date): Promise<ServiceKeys> {
  const tagSecret =
    secretOverride ??
    (await storedOrCreated(sql, 'tag_secret', async () => randomBytes(32).toString('base64url')));
  return { tagSecret, ...(await loadSigningKeys(sql, now)) };
}

/** Re-reads the signing keys into `keys` in place: every holder of the object sees the new ones. */
export async function refreshSigningKeys(sql: Sql, keys: ServiceKeys, now?: Date): Promise<void> {
  Object.assign(keys, await loadSigningKeys(sql, now));
}

/**
 * The public key a signature naming `kid` verifies with, or null. A kid this process has not seen
 * (another process rotated a moment ago) makes it re-read the keys once.
 */
export async function verifyingKey(
  ctx: { db: Sql; keys: ServiceKeys; clock: { now(): Date } },
  kid: string | null | undefined,
): Promise<JWK | null> {
  if (typeof kid !== 'string' || kid.length === 0) return null;
  if (!ctx.keys.verifying.has(kid)) await refreshSigningKeys(ctx.db, ctx.keys, ctx.clock.now());
  return ctx.keys.verifying.get(kid) ?? null;
}

/**
 * `npm run keys:rotate`: in one transaction, retires the active key and makes a fresh one active.
 * The row lock on the active key serialises two rotations; the partial unique index
 * signing_keys_one_active keeps exactly one active key whatever happens.
 */
export async function rotateSigningKey(db: {
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}): Promise<{ retired: string | null; active: string }> {
  const next = await newSigningKey();
  return db.transaction(async (tx) => {
    const [current] = await tx.kysely
      .selectFrom('signing_keys')
      .select('kid')
      .where('retired_at', 'is', null)
      .forUpdate()
      .execute();
    await tx.query('update signing_keys set retired_at = now() where retired_at is null');
    await tx.query('insert into signing_keys (kid, private_jwk, public_jwk) values ($1, $2, $3)', [
      next.kid,
      JSON.stringify(next.privateJwk),
      JSON.stringify(next.publicJwk),
    ]);
    return { retired: current?.kid ?? null, active: next.kid };
  });
}
