/**
 * Issue 21 point 8: signing-key rotation. Sign (seal a day, issue a certificate), rotate, sign
 * again: both verify through the public routes and the relay client, the JWKS lists both keys,
 * another process verifies what the new key signed without a restart, tampering is still refused.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.ts';
import { Migration0072SigningKeyRing } from '../../../api/db/migrations/Migration0072SigningKeyRing.ts';
import { loadSigningKeys, newSigningKey, refreshSigningKeys, rotateSigningKey } from '../../../api/keys.ts';
import { checkLogConsistency } from '../../../api/ledger/consistency.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import { verifyReceiptProof } from '../../../shared/ledger/index.ts';
import { createRelayClient } from '../../../shared/relay-client/index.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { agentImprint } from '../../helpers/builders.ts';
import { missing } from '../../helpers/elements.ts';

let t: TestApp;
let base: string;
let other: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // A second API process on the same database: it never restarts during the test.
  other = await buildApp({
    db: t.database.db,
    clock: t.clock,
    site: false,
    config: {
      origin: TEST_ORIGIN,
      rateReadsPerMin: 100_000,
      rateWritesPerMin: 100_000,
      dataDir: '/nonexistent',
    },
  });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const { get } = requests(() => t.app);
const certificate = async () =>
  (await get('/api/agent/certificate?handle=rotating-agent')).json().certificate as string;
const verifyCertificate = (app: FastifyInstance, cert: string) =>
  app
    .inject({ method: 'POST', url: '/api/agent/certificate/verify', payload: { certificate: cert } })
    .then((res) => res.json());
const tamper = (jws: string) => {
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  const flipped = signature[0] === 'A' ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
  return [header, payload, flipped].join('.');
};

describe('signing-key rotation', () => {
  it('keeps what the old key signed verifiable, and signs with the new key from then on', async () => {
    const oldKid = t.app.civitas.keys.signing.kid;
    const before = (await agentImprint(t.app, 'rotating-agent', 'signed before the rotation')).receipt_id;
    const oldCert = await certificate();
    t.clock.set('2026-11-23T00:10:00.000Z');
    await sealDueDays(t.app.civitas);

    const rotated = await rotateSigningKey(t.database.db);
    expect(rotated.retired).toBe(oldKid);
    // What the refresh timer (api/app.ts) does within KEY_REFRESH_MS; `other` is left alone.
    await refreshSigningKeys(t.database.db, t.app.civitas.keys, t.clock.now());
    const newKid = t.app.civitas.keys.signing.kid;
    expect(newKid).toBe(rotated.active);
    expect(newKid).not.toBe(oldKid);

    t.clock.set('2026-11-23T12:00:00.000Z');
    const after = (await agentImprint(t.app, 'rotating-agent', 'signed after the rotation')).receipt_id;
    const newCert = await certificate();
    t.clock.set('2026-11-24T00:10:00.000Z');
    await sealDueDays(t.app.civitas);

    // Each day's anchor names the key that sealed it.
    expect((await get('/verify/anchor/2026-11-22')).json().key_id).toBe(oldKid);
    expect((await get('/verify/anchor/2026-11-23')).json().key_id).toBe(newKid);

    // The JWKS publishes both, the active one first, and no private part.
    const keys = (await get('/agents.json')).json().jwks.keys as { kid: string; d?: string }[];
    expect(keys.map((k) => k.kid)).toEqual([newKid, oldKid]);
    expect(keys.every((k) => k.d === undefined)).toBe(true);

    // The public verify routes: each receipt's anchor with its own key, the chain across the rotation.
    for (const id of [before, after]) {
      const view = (await get(`/verify/${id}`)).json();
      expect(view.verification.ok, JSON.stringify(view.verification.checks)).toBe(true);
      expect(view.verification.sealed).toBe(true);
    }
    expect((await get(`/verify/${before}`)).json().key.public_jwk.kid).toBe(oldKid);
    const chain = (await get('/verify/anchor-chain')).json();
    expect(chain.verification).toMatchObject({ ok: true, length: 2 });
    expect((await checkLogConsistency(t.app.civitas)).problems).toEqual([]);

    // Certificates from before and after verify, each under its own kid; a tampered one does not.
    expect(await verifyCertificate(t.app, oldCert)).toMatchObject({ valid: true, key_id: oldKid });
    expect(await verifyCertificate(t.app, newCert)).toMatchObject({ valid: true, key_id: newKid });
    expect(await verifyCertificate(t.app, tamper(oldCert))).toMatchObject({
      valid: false,
      problem: 'signature',
    });
    // The process that has not refreshed yet verifies the new key's certificate all the same.
    expect(other.civitas.keys.verifying.has(newKid)).toBe(false);
    expect(await verifyCertificate(other, newCert)).toMatchObject({ valid: true, key_id: newKid });

    // The relay client checks an old and a new receipt with nothing but the published JWKS.
    const client = createRelayClient({ baseUrl: base, handle: 'rotating-agent' });
    expect((await client.verifyReceipt(before)).ok).toBe(true);
    expect((await client.verifyReceipt(after)).ok).toBe(true);

    // An anchor that claims the new key for the old day, or carries an altered signature, is refused.
    const receipt = (await get(`/api/receipt/${before}`)).json();
    const proof = (await get(`/verify/inclusion/2026-11-22/${before}`)).json();
    const publicJwks = keys as never;
    expect((await verifyReceiptProof({ receipt, proof, publicJwks })).ok).toBe(true);
    const relabelled = { ...proof.anchor, key_id: newKid };
    expect((await verifyReceiptProof({ receipt, proof, anchor: relabelled, publicJwks })).ok).toBe(false);
    const signature = `${proof.anchor.signature[0] === 'A' ? 'B' : 'A'}${proof.anchor.signature.slice(1)}`;
    const forged = { ...proof.anchor, signature };
    expect((await verifyReceiptProof({ receipt, proof, anchor: forged, publicJwks })).ok).toBe(false);
  });

  it('publishes a retired key that signed no anchor only while its certificates can be valid', async () => {
    const idle = await rotateSigningKey(t.database.db); // the key made active here signs nothing
    await rotateSigningKey(t.database.db);
    const soon = await loadSigningKeys(t.database.db, new Date(Date.now() + 86_400_000));
    const later = await loadSigningKeys(t.database.db, new Date(Date.now() + 8 * 86_400_000));
    const kids = (keys: { kid?: string }[]) => keys.map((k) => k.kid);
    expect(kids(soon.published)).toContain(idle.active);
    expect(kids(later.published)).not.toContain(idle.active);
    // Keys that sealed a day stay published (the Record is permanent), and every key still verifies.
    expect(kids(later.published)).toContain(idle.retired);
    expect(later.published).toHaveLength(soon.published.length - 1);
    expect(later.verifying.has(idle.active)).toBe(true);
    const [active = missing()] = await t.database.db.query<{ n: string }>(
      'select count(*) as n from signing_keys where retired_at is null',
    );
    expect(Number(active.n)).toBe(1);
  });

  it('migration 0072 moves the single stored key into signing_keys under its kid, active', async () => {
    const statements: string[] = [];
    const migration = Object.create(Migration0072SigningKeyRing.prototype) as { up(): void };
    Object.assign(migration, { addSql: (sql: string) => void statements.push(sql) });
    migration.up();
    const legacy = await newSigningKey();
    const db = t.database.db;
    await db.query('drop table signing_keys');
    await db.query(
      "insert into service_keys (name, value, created_at) values ('signing_ed25519', $1, '2026-01-02T03:04:05Z')",
      [JSON.stringify(legacy)],
    );
    for (const sql of statements) await db.query(sql);
    const keys = await loadSigningKeys(db);
    expect(keys.signing).toEqual(legacy);
    expect([...keys.verifying.keys()]).toEqual([legacy.kid]);
    const [row = missing()] = await db.query<{ created: string }>(
      "select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as created from signing_keys",
    );
    expect(row.created).toBe('2026-01-02');
    expect(await db.query("select 1 from service_keys where name = 'signing_ed25519'")).toEqual([]);
  });
});
