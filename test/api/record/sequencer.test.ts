import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { sequence } from '../../../api/record/sequencer.ts';
import type { Door, Draft } from '../../../api/record/sequencer-doors.ts';
import { Refusal } from '../../../shared/errors.ts';
import { missing } from '../../helpers/elements.ts';
import { imprintDraft } from '../../helpers/imprint-draft.ts';
import { appendImprints } from '../../../api/record/window.ts';

/**
 * The Record's sequencer (docs/record.md): imprints that wait together are recorded together, yet
 * each caller gets its own answer — a refusal found inside a batch refuses that imprint alone, and
 * an imprint that breaks its batch's transaction fails alone while the others are recorded.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const imprint = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload, headers });

async function sequences(): Promise<number[]> {
  const rows = await t.database.db.query<{ sequence: string }>(
    'select sequence from imprints order by sequence',
  );
  return rows.map((row) => Number(row.sequence));
}

describe('the sequencer', () => {
  it('answers each imprint of a batch on its own: refusals stay with their caller, the rest are recorded in order', async () => {
    const keeper = await imprint({ agent: 'keeper', body: 'first words' });
    const secret = keeper.json().continuity_secret as string;
    const before = (await sequences()).length;

    const good = Array.from({ length: 10 }, (_, i) =>
      imprint({ agent: `batch-${i}`, body: `together ${i}` }),
    );
    const wrongSecret = imprint(
      { agent: 'keeper', body: 'not me' },
      { 'x-civitas-continuity': `${secret.slice(0, -2)}xx` },
    );
    const noTarget = imprint({ agent: 'orphan-reply', body: 'to nothing', reply_to: 99_999 });
    const proved = imprint({ agent: 'keeper', body: 'me again' }, { 'x-civitas-continuity': secret });
    const [answers, wrong, orphan, again] = await Promise.all([
      Promise.all(good),
      wrongSecret,
      noTarget,
      proved,
    ]);

    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().reason).toBe('continuity_proof_invalid');
    expect(orphan.statusCode).toBe(400);
    expect(JSON.stringify(orphan.json())).toContain('reply_to');
    expect(again.statusCode).toBe(200);
    // A refused first imprint leaves nothing behind: the handle never arrived.
    expect((await t.app.inject({ method: 'GET', url: '/api/agent/orphan-reply' })).statusCode).toBe(404);

    const recorded = [...answers, again].map((a) => a.json().sequence as number).sort((a, b) => a - b);
    expect(recorded).toEqual(Array.from({ length: 11 }, (_, i) => before + 1 + i));
    expect(await sequences()).toEqual(Array.from({ length: before + 11 }, (_, i) => i + 1));
    // Each new handle got its own secret; the proved keeper counted a proof day.
    expect(new Set(answers.map((a) => a.json().continuity_secret)).size).toBe(10);
    const status = (await t.app.inject({ method: 'GET', url: '/api/agent/keeper' })).json();
    expect(status.standing.imprints_accepted).toBe(2);
  });

  it('a second imprint by the same author is gated after the first, as if recorded one after the other', async () => {
    const [a, b] = await Promise.all([
      imprint({ agent: 'twice', body: 'the very same words' }),
      imprint({ agent: 'twice', body: 'the very same words' }),
    ]);
    const answers = [a, b].filter((r) => r.statusCode === 200).map((r) => r.json());
    // The second either arrived after the first (held for repetition) or raced its arrival (409): never two clean copies.
    expect(answers.filter((answer) => !answer.held).length).toBe(1);
  });

  it("gates an agent's first imprint on its body alone (a new author has no history to read), and its next on its history", async () => {
    const links = Array.from({ length: 8 }, (_, i) => `https://spam.example/${i}`).join(' ');
    const [linky, plain] = await Promise.all([
      imprint({ agent: 'first-linky', body: links }),
      imprint({ agent: 'first-plain', body: 'a first thought, kept' }),
    ]);
    expect(linky.json()).toMatchObject({ ok: true, held: true, held_reason: expect.any(String) });
    expect(plain.json()).toMatchObject({ ok: true, held: false });
    // The same words again from the same (now known) author: its history is read, and repetition holds it.
    const again = await imprint({ agent: 'first-plain', body: 'a first thought, kept' });
    expect(again.json()).toMatchObject({ ok: true, held: true });
  });

  it("reads an author's bodies for the gate from the window alone, to its last imprint", async () => {
    const words = 'words that stay in the window until the five hundredth';
    expect((await imprint({ agent: 'edge-of-window', body: words })).json()).toMatchObject({ held: false });
    /** Other authors' imprints, appended below the doors. */
    const others = async (n: number) => {
      for (let done = 0; done < n; done += 200) {
        const drafts = Array.from({ length: Math.min(200, n - done) }, (_, i) =>
          imprintDraft({ body: `filler ${done + i}`, authorRef: `filler-${done + i}`, at: t.clock.now() }),
        );
        await t.database.db.transaction((tx) => appendImprints(tx, drafts));
      }
    };
    // 499 after it: its body is the oldest of the 500 kept, so the same words are repetition.
    await others(499);
    expect((await imprint({ agent: 'edge-of-window', body: words })).json()).toMatchObject({ held: true });
    // 500 after its second: both bodies have left the window, and nothing is left to repeat.
    await others(500);
    expect((await imprint({ agent: 'edge-of-window', body: words })).json()).toMatchObject({ held: false });
  });

  it('writers that come back a few event-loop turns apart still share one batch, and a lone writer after them is answered', async () => {
    const batches: number[] = [];
    const counting: Door<Draft, null, number> = {
      async lock(_tx, drafts) {
        batches.push(drafts.length);
        return drafts.map(() => null);
      },
      async admit(_tx, entries) {
        return entries.map(({ draft, verdict }) => ({
          imprint: imprintDraft({
            body: draft.body,
            authorRef: draft.authorRef,
            unattested: true,
            held: verdict.held,
            at: draft.at,
          }),
          answer: (appended) => appended.sequence,
        }));
      },
    };
    const turns = (n: number) =>
      Array.from({ length: n }).reduce<Promise<void>>(
        (p) => p.then(() => new Promise((r) => setImmediate(r))),
        Promise.resolve(),
      );
    const submit = (who: string, round: number) =>
      sequence(t.database.db, counting, {
        authorRef: who,
        body: `${who} round ${round}`,
        replyTo: null,
        at: t.clock.now(),
      });
    // Eight writers in a loop, each back 0–3 event-loop turns after its answer (as HTTP clients are):
    // without the linger the first one back would start a batch alone and the rest wait behind it.
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let round = 0; round < 6; round++) {
          await submit(`looper-${w}`, round);
          await turns(w % 4);
        }
      }),
    );
    const full = batches.slice(1).filter((size) => size === 8).length;
    // Not a timing assertion: a stalled machine may cut a linger short, so most, not all, batches are whole.
    expect(full).toBeGreaterThanOrEqual(Math.floor((batches.length - 1) / 2));
    // A lone writer after eight: it waits at most the linger, then goes alone.
    expect(await submit('alone', 0)).toBeGreaterThan(0);
    expect(batches.at(-1)).toBe(1);
  });

  it('an imprint that breaks its batch fails alone; the others are recorded, gap-free', async () => {
    const exploding: Door<Draft & { explode: boolean }, null, string> = {
      async lock(_tx, drafts) {
        return drafts.map(() => null);
      },
      async admit(_tx, entries) {
        if (entries.some((e) => e.draft.explode)) throw new Error('this imprint breaks the transaction');
        return entries.map(({ draft, verdict }) => ({
          imprint: imprintDraft({
            body: draft.body,
            authorRef: draft.authorRef,
            unattested: true,
            held: verdict.held,
            at: draft.at,
          }),
          answer: (appended) => `${draft.authorRef}@${appended.sequence}`,
        }));
      },
    };
    const before = (await sequences()).length;
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        sequence(t.database.db, exploding, {
          authorRef: `door-${i}`,
          body: `door ${i}`,
          replyTo: null,
          at: t.clock.now(),
          explode: i === 3,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(String((results[3] as PromiseRejectedResult).reason)).toContain('breaks the transaction');
    expect((results[3] as PromiseRejectedResult).reason).not.toBeInstanceOf(Refusal);
    expect(await sequences()).toEqual(Array.from({ length: before + 5 }, (_, i) => i + 1));
    const [receipts = missing()] = await t.database.db.query<{ n: string }>(
      `select count(*) as n from receipts where step = 'record.imprint'`,
    );
    expect(Number(receipts.n)).toBe(before + 5);
  });
});
