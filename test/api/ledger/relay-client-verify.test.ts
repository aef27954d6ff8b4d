import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';

const bundle = new URL('../../../dist/client/relay-client.mjs', import.meta.url);
const built = existsSync(bundle);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe.skipIf(!built)('/relay-client.mjs verifier', () => {
  it('verifies a server proof with only the published JSON and JWKS, and rejects tampering', async () => {
    const { verifyReceiptProof } = (await import(bundle.href)) as {
      verifyReceiptProof: (input: unknown) => Promise<{ ok: boolean }>;
    };
    expect(typeof verifyReceiptProof).toBe('function');
    const id = (
      await t.app.inject({
        method: 'POST',
        url: '/api/agent/imprint',
        payload: { agent: 'relay-verifier', body: 'check me' },
      })
    ).json().receipt_id;
    t.clock.set('2026-11-23T00:10:00.000Z');
    await sealDueDays(t.app.civitas);
    const receipt = (await t.app.inject({ method: 'GET', url: `/api/receipt/${id}` })).json();
    const proof = (
      await t.app.inject({ method: 'GET', url: `/verify/inclusion/${receipt.log.date}/${id}` })
    ).json();
    const publicJwk = (await t.app.inject({ method: 'GET', url: '/agents.json' })).json().jwks.keys[0];
    expect(publicJwk.d).toBeUndefined();
    expect((await verifyReceiptProof({ receipt, proof, publicJwk })).ok).toBe(true);
    expect((await verifyReceiptProof({ receipt: { ...receipt, step: 'forged' }, proof, publicJwk })).ok).toBe(
      false,
    );
    expect(
      (await verifyReceiptProof({ receipt, proof: { ...proof, root_hash: 'ab'.repeat(32) }, publicJwk })).ok,
    ).toBe(false);
  });
});
