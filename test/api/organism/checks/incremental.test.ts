/**
 * Self-knowledge on the incremental path (docs/organism.md "Self-knowledge kept"): with a batch
 * far smaller than the Record, a job run verifies only what is new (a tampered new receipt turns
 * red at the next run), the rolling re-check and the operator's full re-verification find a
 * tampered receipt or anchor that was already verified, and each view — self-trials, truth,
 * trust, vigilance, promises, the organism — shows it, because they all read the one kept answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../../api/record/window.ts';
import { sealDueDays } from '../../../../api/ledger/sealing.ts';
import { verifyFull } from '../../../../api/organism/checks/full.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { verifyNow } from '../verify-now.ts';
import { requests } from '../../../helpers/http.ts';
import { entry, firstOf, missing } from '../../../helpers/elements.ts';
import { imprintDraft } from '../../../helpers/imprint-draft.ts';

let t: TestApp;
const BATCH = 4;
const { get: json } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);
const run = () => verifyNow(t, { batch: BATCH });

async function write(count: number) {
  await t.database.db.transaction(async (tx) => {
    for (let i = 0; i < count; i++)
      await appendImprint(
        tx,
        imprintDraft({ body: `incremental ${i}`, authorRef: 'walker', unattested: true, at: t.clock.now() }),
      );
  });
}

const CLAIM_TRIAL: Record<string, string> = {
  window_bounded: 'record_window',
  sequence_gap_free: 'gap_free_sequence',
  every_imprint_has_receipt: 'receipts',
  anchor_chain_verifies: 'anchor_chain',
  all_boundaries_bound: 'boundaries',
};
type Named = { name?: string; trial?: string; claim?: string };
const names = (items: Named[]) =>
  items
    .map((i) => i.name ?? i.trial ?? CLAIM_TRIAL[i.claim!] ?? i.claim!)
    .filter((n) => n !== 'boundaries')
    .sort();

/** Each view's failing trials (claims named by their trial), boundaries aside (the test app's census). */
const VIEWS: Record<string, (body: never) => string[]> = {
  '/api/self-trials': (b: { trials: (Named & { passed: boolean })[] }) =>
    names(b.trials.filter((x) => !x.passed)),
  '/api/truth': (b: { checks: (Named & { held: boolean })[] }) => names(b.checks.filter((x) => !x.held)),
  '/api/trust': (b: { claims: (Named & { last_held: boolean | null })[] }) =>
    names(b.claims.filter((x) => x.last_held === false)),
  '/api/vigilance': (b: { watched: (Named & { passing: boolean | null })[] }) =>
    names(b.watched.filter((x) => x.passing === false)),
  '/api/promises': (b: { promises: (Named & { kept: boolean | null; target: unknown })[] }) =>
    names(b.promises.filter((x) => x.target === true && x.kept === false)),
  '/api/organism': (b: { self_trials: { trials: (Named & { passed: boolean })[] } }) =>
    names(b.self_trials.trials.filter((x) => !x.passed)),
};

const failing = async (view: string) => entry(VIEWS, view)((await json(view)).json() as never);

/** Runs the job until `view` shows `expected`, at most `runs` times; returns how many it took. */
async function runsUntil(view: string, expected: string[], runs: number): Promise<number> {
  for (let i = 1; i <= runs; i++) {
    await run();
    if (JSON.stringify(await failing(view)) === JSON.stringify(expected)) return i;
  }
  throw new Error(
    `${view} did not show ${JSON.stringify(expected)} within ${runs} runs: ${JSON.stringify(await failing(view))}`,
  );
}

/** Every view's failing trials, by view. */
const everyView = async () =>
  Object.fromEntries(await Promise.all(Object.keys(VIEWS).map(async (view) => [view, await failing(view)])));
const inEveryView = (expected: string[]) =>
  Object.fromEntries(Object.keys(VIEWS).map((view) => [view, expected]));

/** Runs the job until every view shows `expected`, at most `runs` times. */
async function runsUntilEvery(expected: string[], runs: number): Promise<void> {
  const wanted = JSON.stringify(inEveryView(expected));
  for (let i = 1; i <= runs; i++) {
    await run();
    if (JSON.stringify(await everyView()) === wanted) return;
  }
  throw new Error(
    `not every view showed ${JSON.stringify(expected)} within ${runs} runs: ${JSON.stringify(await everyView())}`,
  );
}

const receiptOf = async (sequence: number) =>
  firstOf(
    await sql<{ receipt_id: string }>('select receipt_id from imprints where sequence = $1', [sequence]),
  ).receipt_id;
const lifetime = async () =>
  Number(firstOf(await sql<{ value: string }>('select value from record_counter where id = 1')).value);
/** One rolling lap over everything verified, in runs of BATCH items (plus slack for day ends). */
const lap = async () => Math.ceil(((await lifetime()) * 3) / BATCH) + 3;

/** Runs the job until every walk has verified everything stored (a bounded number of runs). */
async function catchUp(runs = 40) {
  for (let i = 0; i < runs; i++) {
    await run();
    const walks = (await json('/api/self-trials')).json().verification.walks as { complete: boolean }[];
    if (walks.every((w) => w.complete)) return;
  }
  throw new Error(`not caught up within ${runs} runs`);
}

beforeAll(async () => {
  t = await createTestApp();
  await write(10);
  await catchUp();
}, 120_000);
afterAll(async () => t?.close());

describe('a job run verifies at most its batch, and says how far it reached', () => {
  it('catches up a backlog over several runs, resumably', async () => {
    await write(3 * BATCH);
    await run();
    const walk = (await json('/api/self-trials'))
      .json()
      .verification.walks.find((w: { walk: string }) => w.walk === 'imprints');
    expect(walk).toMatchObject({ complete: false, verified: 10 + BATCH });
    await catchUp();
    const done = (await json('/api/self-trials')).json().verification.walks[0];
    expect(done).toMatchObject({ complete: true, verified: await lifetime() });
  }, 60_000);
});

// Every view reads the one kept answer, so one walk through the story serves them all: each step
// waits until all six show it (within the same bound of runs a single view had), and names the view
// that does not.
describe('every view on the incremental path', () => {
  it('turns red at the next run for a tampered new receipt, and by the re-check or full run for an old one', async () => {
    const red = ['anchor_chain', 'receipts'];
    // New: written and tampered before any run verified it; the next run's frontier finds it.
    await catchUp();
    await write(2);
    const fresh = await receiptOf(await lifetime());
    await sql("update receipts set step = 'tampered' where id = $1", [fresh]);
    await run();
    expect(await everyView()).toEqual(inEveryView(red));
    await sql("update receipts set step = 'record.imprint' where id = $1", [fresh]);
    await runsUntilEvery([], await lap());

    // Old: verified long ago; the rolling re-check finds it within one lap.
    const old = await receiptOf(2);
    await sql("update receipts set step = 'tampered' where id = $1", [old]);
    await runsUntilEvery(red, await lap());
    await sql("update receipts set step = 'record.imprint' where id = $1", [old]);
    await runsUntilEvery([], await lap());

    // Old again, found by the operator's full re-verification and shown at the next run.
    await sql("update receipts set step = 'tampered' where id = $1", [old]);
    expect((await verifyFull(t.app.civitas, { batch: BATCH, seconds: 60 })).done).toBe(true);
    await run();
    expect(await everyView()).toEqual(inEveryView(red));
    await sql("update receipts set step = 'record.imprint' where id = $1", [old]);
    await runsUntilEvery([], await lap());
  }, 120_000);
});

describe('anchors on the incremental path', () => {
  it('a new anchor tampered before its day is verified, and an old one after', async () => {
    t.clock.advance(86_400_000);
    await sealDueDays(t.app.civitas);
    const [day = missing()] = await sql<{ date: string; signature: string; root_hash: string }>(
      `select to_char(date, 'YYYY-MM-DD') as date, signature, root_hash from anchors order by date desc limit 1`,
    );
    const forged = `${day.signature.slice(0, -4)}AAAA`;
    await sql('update anchors set signature = $2 where date = $1', [day.date, forged]);
    expect(await runsUntil('/api/self-trials', ['anchor_chain'], await lap())).toBeGreaterThan(0);
    const trials = (await json('/api/self-trials')).json();
    expect(trials.trials.find((x: { name: string }) => x.name === 'anchor_chain').detail).toContain(
      `anchor ${day.date}`,
    );
    await sql('update anchors set signature = $2 where date = $1', [day.date, day.signature]);
    await runsUntil('/api/self-trials', [], await lap());
    const ledger = (await json('/api/self-trials')).json().verification.walks[1];
    expect(ledger).toMatchObject({ walk: 'ledger', days: 1 });

    // The same anchor, now verified: its root tampered; the full re-verification finds it.
    await sql(`update anchors set root_hash = repeat('0', 64) where date = $1`, [day.date]);
    await verifyFull(t.app.civitas, { batch: BATCH, seconds: 60 });
    await run();
    expect(await failing('/api/truth')).toEqual(['anchor_chain']);
    await sql('update anchors set root_hash = $2 where date = $1', [day.date, day.root_hash]);
    await runsUntil('/api/truth', [], await lap());
  }, 120_000);
});

describe('/api/trust and /api/truth read the same kept round', () => {
  it('agree on every run, even two runs within a minute (no throttled round is dropped)', async () => {
    await catchUp();
    const before = (await json('/api/trust')).json().checks;
    await write(1);
    const fresh = await receiptOf(await lifetime());
    await sql("update receipts set step = 'tampered' where id = $1", [fresh]);
    await run();
    const truth = (await json('/api/truth')).json();
    const trust = (await json('/api/trust')).json();
    expect(entry(VIEWS, '/api/trust')(trust as never)).toEqual(entry(VIEWS, '/api/truth')(truth as never));
    expect(entry(VIEWS, '/api/truth')(truth as never)).toEqual(['anchor_chain', 'receipts']);
    expect(trust.claims[0].last_checked_at).toBe(truth.as_of);
    await sql("update receipts set step = 'record.imprint' where id = $1", [fresh]);
    await runsUntil('/api/truth', [], await lap());
    expect(await failing('/api/trust')).toEqual([]);
    expect((await json('/api/trust')).json().checks).toBeGreaterThanOrEqual(before + 14);
  }, 60_000);
});
