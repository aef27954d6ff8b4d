import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { startApiProcess, type RunningProcess } from '../../helpers/processes.ts';
import { verifyReceiptProof } from '../../../shared/ledger/verifier.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * Nothing acknowledged is lost (docs/record.md, "The sequencer"): concurrent writers through every
 * imprint door of a real API process on PostgreSQL; the process is killed with SIGKILL once some
 * imprints are acknowledged, mid-flight. After a restart every acknowledged sequence is there with
 * its receipt, the receipt verifies, and the sequence is gap-free with one receipt per imprint.
 */
let t: TestApp;
let human: TestSovereign;
beforeAll(async () => {
  t = await createTestApp();
  human = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

interface Acknowledged {
  sequence: number;
  receipt_id: string;
}

const ORIGIN = 'http://127.0.0.1';
const json = { 'content-type': 'application/json', origin: ORIGIN };

/** One imprint through door `w % 4`: new handle, returning handle (secret), signed-in human, sessionless human. */
function writer(base: string, w: number, secrets: Map<string, string>) {
  return async (i: number): Promise<Response> => {
    const body = JSON.stringify;
    switch (w % 4) {
      case 0:
        return fetch(`${base}/api/agent/imprint`, {
          method: 'POST',
          headers: json,
          body: body({ agent: `crash-${w}-${i}`, body: `crash ${w} ${i}` }),
        });
      case 1: {
        const handle = `crash-keeper-${w}`;
        const secret = secrets.get(handle);
        const response = await fetch(`${base}/api/agent/imprint`, {
          method: 'POST',
          headers: { ...json, ...(secret ? { 'x-civitas-continuity': secret } : {}) },
          body: body({ agent: handle, body: `keeper ${w} says ${i}` }),
        });
        if (response.ok && !secret) {
          const copy = response.clone();
          secrets.set(handle, (await copy.json()).continuity_secret);
        }
        return response;
      }
      case 2:
        return fetch(`${base}/api/quick-imprint`, {
          method: 'POST',
          headers: { ...json, cookie: human.cookie },
          body: body({ body: `signed-in human ${w} ${i}` }),
        });
      default:
        return fetch(`${base}/api/agent/imprint`, {
          method: 'POST',
          headers: json,
          body: body({ sovereign_id: human.tag, body: `sessionless human ${w} ${i}` }),
        });
    }
  };
}

describe('the sequencer under SIGKILL', () => {
  it('loses no acknowledged imprint or receipt, and the sequence stays gap-free', async (context) => {
    if (!t.database.url) {
      context.skip(
        'Needs a real PostgreSQL (TEST_DATABASE_URL): the embedded database is one process, killed with its data.',
      );
      return;
    }
    const first = await startApiProcess({ DATABASE_URL: t.database.url, CIVITAS_ORIGIN: ORIGIN });
    const acknowledged: Acknowledged[] = [];
    const refused: Array<{ status: number; body: string }> = [];
    const secrets = new Map<string, string>();
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      first.child.kill('SIGKILL');
    };
    let second: RunningProcess | undefined;
    try {
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          const send = writer(first.url, w, secrets);
          for (let i = 0; ; i++) {
            let response: Response;
            try {
              response = await send(i);
            } catch {
              return; // the process is gone: this request was never acknowledged
            }
            if (response.status !== 200) {
              refused.push({ status: response.status, body: await response.text() });
              continue;
            }
            const answer = (await response.json()) as Acknowledged;
            acknowledged.push({ sequence: answer.sequence, receipt_id: answer.receipt_id });
            // Killed while the other writers are mid-request, with batches in flight.
            if (acknowledged.length >= 120) kill();
            if (killed) return;
          }
        }),
      );
      expect(killed).toBe(true);
      await new Promise((done) =>
        first.child.exitCode !== null || first.child.signalCode !== null
          ? done(null)
          : first.child.once('exit', done),
      );
      // Same-author imprints from the sessionless human may be held by the gate (burst), never refused.
      expect(refused).toEqual([]);

      second = await startApiProcess({ DATABASE_URL: t.database.url, CIVITAS_ORIGIN: ORIGIN });
      const db = t.database.db;
      const rows = await db.query<{ sequence: string; receipt_id: string }>(
        'select sequence, receipt_id from imprints order by sequence',
      );
      const stored = new Map(rows.map((row) => [Number(row.sequence), row.receipt_id]));
      for (const ack of acknowledged)
        expect(stored.get(ack.sequence), `imprint #${ack.sequence}`).toBe(ack.receipt_id);

      // Gap-free: 1..N, the counter says N, one receipt per imprint naming its sequence.
      const [counter = missing()] = await db.query<{ value: string }>(
        'select value from record_counter where id = 1',
      );
      expect(rows.map((row) => Number(row.sequence))).toEqual(
        Array.from({ length: rows.length }, (_, i) => i + 1),
      );
      expect(Number(counter.value)).toBe(rows.length);
      const receipts = await db.query<{ id: string; subject: string }>(
        `select id, subject from receipts where step = 'record.imprint'`,
      );
      expect(new Map(receipts.map((r) => [r.id, r.subject]))).toEqual(
        new Map(rows.map((row) => [row.receipt_id, `imprint:${row.sequence}`])),
      );
      // The day's leaves are contiguous from 0 (no leaf index claimed by a lost transaction).
      const days = await db.query<{ n: string; max: string; size: string }>(
        `select count(*) as n, max(r.leaf_index) as max, d.size from receipts r join log_days d on d.date = r.log_date group by d.date, d.size`,
      );
      for (const day of days)
        expect([Number(day.max) + 1, Number(day.size)]).toEqual([Number(day.n), Number(day.n)]);

      // Every acknowledged receipt verifies against the restarted server's proof.
      for (const ack of acknowledged.filter((_, i) => i % 10 === 0)) {
        const receipt = await (await fetch(`${second.url}/api/receipt/${ack.receipt_id}`)).json();
        const proof = await (
          await fetch(`${second.url}/verify/inclusion/${receipt.log.date}/${ack.receipt_id}`)
        ).json();
        expect((await verifyReceiptProof({ receipt, proof })).ok, ack.receipt_id).toBe(true);
      }

      // The restarted process appends right after the last committed imprint.
      const after = await fetch(`${second.url}/api/agent/imprint`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ agent: 'after-crash', body: 'still here' }),
      });
      expect(after.status).toBe(200);
      expect((await after.json()).sequence).toBe(rows.length + 1);
    } finally {
      kill();
      await second?.stop();
    }
  }, 180_000);
});
