import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { serverUrl } from '../../helpers/db.ts';
import { imprintDraft } from '../../helpers/imprint-draft.ts';
import { appendImprints } from '../../../api/record/window.ts';
import { checkLogConsistency } from '../../../api/ledger/consistency.ts';
import { verifyReceiptProof, type Ed25519Jwk } from '../../../shared/ledger/index.ts';
import type { Sql } from '../../../api/db/sql.ts';

/**
 * Arrivals in one round trip (docs/record.md): on PostgreSQL, once a batch found the Record where
 * this process's last batch left it, a batch of new handles sends its claims, its handles' rows, its
 * imprints, receipts and tiles and its commit without waiting for any answer; if another writer moved
 * the Record meanwhile, or a handle was stored after all, that attempt rolls back and the batch is
 * recorded the usual way. Either way every caller gets what the lock step would have given.
 */
let t: TestApp;
const { get, post } = requests(() => t.app);
/** Each batch transaction of the sequencer: statements whose answer it awaited, and how it ended. */
const trips: Array<{ awaited: number; committed: boolean }> = [];
const run = randomBytes(3).toString('hex');

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.civitas.db;
  const transaction = db.sqlTransaction.bind(db);
  db.sqlTransaction = async <T>(work: (tx: Sql) => Promise<T>): Promise<T> => {
    const trip = { awaited: 0, committed: false };
    trips.push(trip);
    const result = await transaction((tx) =>
      work({
        kysely: tx.kysely,
        send: (text, params) => tx.send(text, params),
        query: (text, params) => ((trip.awaited += 1), tx.query(text, params)),
      }),
    );
    trip.committed = true;
    return result;
  };
});
afterAll(async () => t?.close());

/** Eight first imprints at once (one batch), each answered 200 with its handle's secret. */
async function arrive(tag: string, extra: string[] = []) {
  const handles = [...Array.from({ length: 8 - extra.length }, (_, i) => `${tag}-${run}-${i}`), ...extra];
  const answers = await Promise.all(
    handles.map((agent) => post('/api/agent/imprint', { agent, body: `hello from ${agent}` })),
  );
  expect(answers.map((a) => a.statusCode)).toEqual(handles.map(() => 200));
  return answers.map((a, i) => ({
    handle: handles[i]!,
    ...(a.json() as { sequence: number; receipt_id: string; continuity_secret?: string }),
  }));
}

async function expectGapFree() {
  const rows = await t.database.db.query<{ sequence: number }>(
    'select sequence from imprints order by sequence',
  );
  expect(rows.map((row) => Number(row.sequence))).toEqual(rows.map((_, i) => i + 1));
  expect((await checkLogConsistency(t.app.civitas)).problems).toEqual([]);
}

async function expectVerifiable(receiptId: string) {
  const v = (await get(`/verify/${receiptId}`)).json();
  const publicJwk = t.app.civitas.keys.signing.publicJwk as unknown as Ed25519Jwk;
  expect((await verifyReceiptProof({ receipt: v.receipt, proof: v.proof, publicJwk })).ok).toBe(true);
}

describe.skipIf(!serverUrl())('arrivals in one round trip (PostgreSQL)', () => {
  it('sends a batch of new handles without awaiting an answer once it is the only writer', async () => {
    for (const round of ['a', 'b']) await arrive(round);
    const before = trips.length;
    const third = await arrive('c');
    expect(trips.slice(before)).toEqual([{ awaited: 0, committed: true }]);
    // What the lock step would have given: a stored secret that proves the handle's continuity.
    for (const answer of third) expect(answer.continuity_secret).toMatch(/\S{20,}/);
    const [first] = third;
    const again = await post(
      '/api/agent/imprint',
      { agent: first!.handle, body: 'me, again' },
      { 'x-civitas-continuity': first!.continuity_secret! },
    );
    expect(again.statusCode).toBe(200);
    expect(third.map((a) => a.sequence)).toEqual(third.map((_, i) => third[0]!.sequence + i));
    for (const answer of third) await expectVerifiable(answer.receipt_id);
    await expectGapFree();
  });

  it('rolls back and records the usual way when another writer moved the Record', async () => {
    await arrive('d'); // the only writer again
    await t.database.db.transaction((tx) =>
      appendImprints(tx, [
        imprintDraft({ body: 'from elsewhere', authorRef: `elsewhere-${run}`, at: t.clock.now() }),
      ]),
    );
    const before = trips.length;
    const answers = await arrive('e');
    expect(trips.slice(before).map((trip) => trip.committed)).toEqual([false, true]);
    expect(trips.at(-1)!.awaited).toBeGreaterThan(0);
    for (const answer of answers) await expectVerifiable(answer.receipt_id);
    await expectGapFree();
  });

  it('rolls back and records the usual way when a handle it took as new was stored', async () => {
    const stored = `stored-${run}`;
    await t.database.db.query(
      `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at, imprints_accepted, imprints_quarantined, public)
       values ($1, $2, 'arrived', now(), now(), 1, 1, true)`,
      [stored, 'f'.repeat(64)],
    );
    for (const round of ['f', 'g']) await arrive(round);
    const before = trips.length;
    const answers = await arrive('h', [stored]);
    expect(trips.slice(before).map((trip) => trip.committed)).toEqual([false, true]);
    const storedAnswer = answers.find((a) => a.handle === stored)!;
    expect(storedAnswer.continuity_secret).toBeUndefined(); // known, not arrived
    expect(answers.filter((a) => a.continuity_secret).length).toBe(7);
    expect((await get(`/api/agent/${stored}`)).json().standing.imprints_accepted).toBe(2);
    await expectGapFree();
  });
});
