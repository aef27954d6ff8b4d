import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { agentImprint } from '../../helpers/builders.ts';
import { recordReceipt } from '../../../api/ledger/receipts.ts';
import { checkLogConsistency } from '../../../api/ledger/consistency.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import { verifyReceiptProof, type Ed25519Jwk } from '../../../shared/ledger/index.ts';
import { receiptLeafHash, subjectDigest, toHex } from '../../../shared/ledger/hash.ts';
import { requests } from '../../helpers/http.ts';

/**
 * Receipts and their proofs (DESIGN.md, the ledger): the wire names, the leaf hashing the shared
 * verifier repeats, refusals, inclusion against an open day's signed head and a sealed day's anchor
 * (a property over random days, with tampering caught), and sealing itself. What the public sees
 * of receipts (redaction, denials, pages, feeds, cards) is receipt-surfaces.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const imprint = async (body: string) => (await agentImprint(t.app, 'ledger-probe', body)).receipt_id;
const key = () => t.app.civitas.keys.signing.publicJwk as unknown as Ed25519Jwk;

describe('receipts', () => {
  it('an accepted imprint has a receipt with the DESIGN wire names, its change status beside it', async () => {
    const id = await imprint('a receipt, please');
    const res = await get(`/api/receipt/${id}`);
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({
      ok: true,
      id,
      step: 'record.imprint',
      subject_redacted: false,
      log: { date: '2026-11-22', leaf_index: expect.any(Number) },
    });
    expect(r.subject).toMatch(/^imprint:\d+$/);
    expect(r.leaf_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.subject_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(r.subject_salt).toMatch(/^[0-9a-f]{32}$/);
    expect(r.recorded_at).toBe('2026-11-22T12:00:00.000Z');
    expect(r.change_status).toMatchObject({ subject: r.subject, status: 'in_record' });
    expect(r.meaning).toContain('does not prove');
  });

  it('hashes each leaf exactly as the shared ledger code does (subject digest and leaf hash)', async () => {
    const r = (await get(`/api/receipt/${await imprint('hash me the same way')}`)).json();
    expect(r.subject_digest).toBe(await subjectDigest(r.subject, r.subject_salt));
    expect(r.leaf_hash).toBe(
      toHex(
        await receiptLeafHash({
          id: r.id,
          step: r.step,
          subject_digest: r.subject_digest,
          recorded_at: r.recorded_at,
        }),
      ),
    );
  });

  it('answers 404 for an unknown id and 400 for a malformed one, in the error shape', async () => {
    const unknown = await get('/api/receipt/rcpt_01JD0000000000000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ ok: false, reason: 'not_found' });
    for (const bad of ['nope', 'rcpt_short', `rcpt_${'U'.repeat(26)}`, `rcpt_${'0'.repeat(150)}`]) {
      const res = await get(`/api/receipt/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
    }
    expect((await get('/verify/rcpt_01JD0000000000000000000000')).statusCode).toBe(404);
    expect((await get('/verify/nope')).statusCode).toBe(400);
    const huge = await get(`/verify/rcpt_${'0'.repeat(5000)}`);
    expect(huge.statusCode).toBeGreaterThanOrEqual(400);
    expect(huge.statusCode).toBeLessThan(500); // 414 from Fastify's router (maxParamLength), before any handler
    expect((await get('/verify/inclusion/2026-02-30/rcpt_01JD0000000000000000000000')).statusCode).toBe(400);
    expect((await get('/verify/inclusion/1999-01-01/rcpt_01JD0000000000000000000000')).statusCode).toBe(404);
    expect((await get('/verify/inclusion-batch/1999-01-01')).statusCode).toBe(404);
    expect((await get('/verify/inclusion-batch/19990101')).statusCode).toBe(400);
    expect((await get('/verify/anchor/1999-01-01')).statusCode).toBe(404);
    expect((await get('/verify/anchor/not-a-date')).statusCode).toBe(400);
    const court = await get('/verify/court/anything');
    expect(court.statusCode).toBe(404);
    expect(court.json().hint).toContain('court');
  });

  it('an open day proves inclusion against a freshly signed head, which the shared verifier accepts', async () => {
    const id = await imprint('open day');
    const v = (await get(`/verify/${id}`)).json();
    expect(v.ok).toBe(true);
    expect(v.proof).toMatchObject({ sealed: false, anchor: null, date: '2026-11-22' });
    expect(v.proof.head.checkpoint).toContain(`civitas.test/log/2026-11-22\n${v.proof.tree_size}\n`);
    const res = await verifyReceiptProof({ receipt: v.receipt, proof: v.proof, publicJwk: key() });
    expect(res.ok, JSON.stringify(res.checks)).toBe(true);
    expect(res.sealed).toBe(false);
    const inc = (await get(`/verify/inclusion/2026-11-22/${id}`)).json();
    expect(inc).toMatchObject({
      ok: true,
      leaf_index: v.proof.leaf_index,
      root_hash: v.proof.root_hash,
      sealed: false,
    });
    const wrongDay = await get(`/verify/inclusion/2026-11-21/${id}`);
    expect(wrongDay.statusCode).toBe(404);
  });

  it('property: for random days of receipts, every server proof verifies, before and after sealing, and tampering is caught', async () => {
    const day0 = new Date('2026-12-01T00:00:00.000Z').getTime();
    let dayOffset = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.nat(), fc.nat(), async (n, pick, bit) => {
        dayOffset += 1;
        const at = new Date(day0 + dayOffset * 86_400_000 + 3_600_000);
        const ids: string[] = [];
        await t.database.db.transaction(async (tx) => {
          for (let i = 0; i < n; i++)
            ids.push(
              (
                await recordReceipt(tx, {
                  step: 'test.step',
                  subject: `test:${i}`,
                  at: new Date(at.getTime() + i),
                })
              ).id,
            );
        });
        const id = ids[pick % n];
        const open = (await get(`/verify/${id}`)).json();
        expect(open.ok).toBe(true);
        expect(open.proof.tree_size).toBe(n);
        t.clock.set(new Date(at.getTime() + 86_400_000).toISOString());
        await sealDueDays(t.app.civitas);
        const sealed = (await get(`/verify/${id}`)).json();
        expect(sealed.ok, JSON.stringify(sealed.verification)).toBe(true);
        expect(sealed.proof.sealed).toBe(true);
        expect(sealed.proof.root_hash).toBe(open.proof.root_hash);
        const ok = await verifyReceiptProof({
          receipt: sealed.receipt,
          proof: sealed.proof,
          publicJwk: key(),
          keyName: 'civitas.test/log',
        });
        expect(ok.ok).toBe(true);
        // tampering: a changed leaf, a changed path element, a wrong root, a forged signature
        const flip = (h: string) =>
          h.slice(0, bit % 64) + (h[bit % 64] === '0' ? '1' : '0') + h.slice((bit % 64) + 1);
        const tampered = [
          { receipt: { ...sealed.receipt, leaf_hash: flip(sealed.receipt.leaf_hash) }, proof: sealed.proof },
          { receipt: { ...sealed.receipt, subject: `${sealed.receipt.subject}x` }, proof: sealed.proof },
          { receipt: sealed.receipt, proof: { ...sealed.proof, root_hash: flip(sealed.proof.root_hash) } },
          {
            receipt: sealed.receipt,
            proof: {
              ...sealed.proof,
              anchor: {
                ...sealed.proof.anchor,
                signature: sealed.proof.anchor.signature.replace(/^./, (c: string) =>
                  c === 'A' ? 'B' : 'A',
                ),
              },
            },
          },
          ...(sealed.proof.inclusion_path.length
            ? [
                {
                  receipt: sealed.receipt,
                  proof: {
                    ...sealed.proof,
                    inclusion_path: sealed.proof.inclusion_path.map((p: string, i: number) =>
                      i === bit % sealed.proof.inclusion_path.length ? flip(p) : p,
                    ),
                  },
                },
              ]
            : []),
        ];
        for (const bad of tampered)
          expect((await verifyReceiptProof({ ...bad, publicJwk: key() })).ok).toBe(false);
      }),
      { numRuns: 12 },
    );
    t.clock.set('2026-11-22T12:00:00.000Z');
  });
});

describe('sealing', () => {
  it('seals each past day once, chains anchors, and a sealed day never changes (late receipts move on)', async () => {
    t.clock.set('2026-11-23T00:30:00.000Z');
    const first = await sealDueDays(t.app.civitas);
    expect(first.ran).toBe(true);
    const again = await sealDueDays(t.app.civitas);
    expect(again.sealed).toHaveLength(0);
    const anchor = (await get('/verify/anchor/2026-11-22')).json();
    expect(anchor).toMatchObject({ ok: true, date: '2026-11-22', key_name: 'civitas.test/log' });
    expect(anchor.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(anchor.checkpoint.startsWith('civitas.test/log/2026-11-22\n')).toBe(true);
    // a receipt stamped on a sealed day goes to the next open day
    const late = await t.database.db.transaction((tx) =>
      recordReceipt(tx, {
        step: 'test.late',
        subject: 'test:late',
        at: new Date('2026-11-22T23:59:59.000Z'),
      }),
    );
    expect(late.log.date > '2026-11-22').toBe(true);
    const after = (await get('/verify/anchor/2026-11-22')).json();
    expect(after.root_hash).toBe(anchor.root_hash);
    expect(after.tree_size).toBe(anchor.tree_size);
    const chain = (await get('/verify/anchor-chain')).json();
    expect(chain.verification.ok).toBe(true);
    expect(chain.anchors.at(-1).previous_anchor_hash).toBe('0'.repeat(64)); // newest first
    const consistency = await checkLogConsistency(t.app.civitas);
    expect(consistency.problems).toEqual([]);
    expect(consistency.ok).toBe(true);
    t.clock.set('2026-11-22T12:00:00.000Z');
  });

  it('the inclusion batch gives the leaves and root of a day, paged', async () => {
    const batch = (await get('/verify/inclusion-batch/2026-11-22?limit=2')).json();
    expect(batch).toMatchObject({ ok: true, date: '2026-11-22', sealed: true, offset: 0 });
    expect(batch.leaves.length).toBeLessThanOrEqual(2);
    expect(batch.anchor.root_hash).toBe(batch.root_hash);
    expect((await get('/verify/inclusion-batch/2026-11-22?limit=0')).statusCode).toBe(400);
  });
});
