/**
 * One batch of the Record's group commit, inside its one transaction (docs/record.md, "One
 * transaction per batch"): each door's lock step, one reply check, the spam gate, each door's own
 * rows, then the imprints (one counter claim, N imprints, N receipts, one window trim). Each
 * waiting imprint gets its own outcome: a value, or the Refusal that refused it alone.
 */
import type { Sql } from '../db/database.ts';
import { Refusal } from '../../shared/errors.ts';
import { BURST_WINDOW_MS, gate, gateFirst, type GateVerdict } from '../../shared/record/gate.ts';
import { appendClaimed, claimRun, claimRunAt, newestOf, type KnownEnd, type RecordEnd } from './window.ts';
import { RECORD_WINDOW } from '../../shared/record/imprint.ts';
import type { Counts, RowOf } from '../db/rows.ts';
import type { Imprint } from './entities.ts';
import type { Admitted, Door, Draft } from './sequencer-doors.ts';

export type AnyDoor = Door<Draft, unknown, unknown>;
/** What a batch answers for one imprint: its door's answer, or the Refusal that refused it alone. */
export type Outcome = { value: unknown } | { refusal: Refusal };

/** A batch's outcomes, in batch order, and where it left the Record (`from`: the counter it found). */
export interface Recorded {
  outcomes: Outcome[];
  from: number;
  end: RecordEnd;
}

/** An imprint waiting in the queue: its door, its draft and its caller's promise. */
export interface Waiting {
  door: AnyDoor;
  draft: Draft;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * A batch plans each of its prepared statements once per connection: `force_generic_plan` for the
 * batch's transaction only (`set_config(…, true)` is `set local`, and a select can be prepared).
 * On the 1,000,000-imprint Record, 8 writers, three alternating rounds: 1,753 / 1,753 / 1,709 →
 * 1,931 / 1,963 / 1,950 writes/s (docs/record.md, "Two round trips, lean arrivals and generic plans").
 */
const GENERIC_PLANS = "select set_config('plan_cache_mode', 'force_generic_plan', true)";

/**
 * Records a batch in the caller's transaction. With `at` (where this process's last batch left the
 * Record, for a batch whose doors all `mayArrive`), the claims and the doors' first rows are sent
 * without waiting, and the whole batch travels in one round trip with its commit; they fail the
 * transaction if another writer moved the Record since (docs/record.md, "Arrivals in one round trip").
 */
// Every `i` below is a position in `batch` (from open() and byDoor), and every `k` a position in the
// inputs of a call that answers one result per input, in order (the Door contract, gateDrafts,
// appendImprints): each `!` marks such a read, and none can miss.
export async function recordBatch(tx: Sql, batch: Waiting[], at?: KnownEnd): Promise<Recorded> {
  const outcomes: Array<Outcome | undefined> = new Array(batch.length);
  const states: unknown[] = new Array(batch.length);
  const open = () => batch.map((_, i) => i).filter((i) => outcomes[i] === undefined);

  // Generic plans: every statement of a batch reads and writes by key, and custom plans were
  // planned again at each bind (0.2 ms for the lock step alone). Set with the begin, no round trip.
  await tx.send(GENERIC_PLANS);
  // The counter and the receipts' leaves are claimed for the whole batch first, without waiting:
  // the claims share their round trip with the first door's lock step, and appendClaimed gives back
  // what the doors refuse.
  const newest = newestOf(batch.map((waiting) => waiting.draft));
  const claim = at ? claimRunAt(tx, at, batch.length, newest) : claimRun(tx, batch.length, newest);
  // Its failure is thrown where it is awaited below; until then the statements after it fail too.
  claim.catch(() => {});

  for (const [door, indexes] of byDoor(batch, open())) {
    const drafts = indexes.map((i) => batch[i]!.draft);
    const locked = at && door.arrive ? await door.arrive(tx, drafts) : await door.lock(tx, drafts);
    locked.forEach((state, k) =>
      state instanceof Refusal ? (outcomes[indexes[k]!] = { refusal: state }) : (states[indexes[k]!] = state),
    );
  }

  const missing = await missingReplyTargets(
    tx,
    open().map((i) => batch[i]!.draft.replyTo),
  );
  for (const i of open()) {
    const replyTo = batch[i]!.draft.replyTo;
    if (replyTo !== null && missing.has(replyTo)) outcomes[i] = { refusal: noReplyTarget(replyTo) };
  }

  const gated = open();
  const fresh = (i: number) => batch[i]!.door.fresh?.(states[i]) === true;
  const known = gated.filter((i) => !fresh(i));
  // The claim's answer came before the lock step's (one connection, in order): no wait.
  const { last, count } = await claim;
  const verdicts = await gateDrafts(
    tx,
    known.map((i) => batch[i]!.draft),
    last - count - RECORD_WINDOW,
  );
  const verdictOf = new Map(known.map((i, k) => [i, verdicts[k]!]));
  for (const i of gated) if (fresh(i)) verdictOf.set(i, gateFirst(batch[i]!.draft.body));

  const admitted = new Map<number, Admitted<unknown>>();
  for (const [door, indexes] of byDoor(batch, gated)) {
    const results = await door.admit(
      tx,
      indexes.map((i) => ({ draft: batch[i]!.draft, state: states[i], verdict: verdictOf.get(i)! })),
    );
    results.forEach((result, k) =>
      result instanceof Refusal
        ? (outcomes[indexes[k]!] = { refusal: result })
        : admitted.set(indexes[k]!, result),
    );
  }

  const order = [...admitted.keys()].sort((a, b) => a - b);
  const claimed = await claim;
  const appended = await appendClaimed(
    tx,
    claimed,
    order.map((i) => admitted.get(i)!.imprint),
  );
  order.forEach((i, k) => (outcomes[i] = { value: admitted.get(i)!.answer(appended.imprints[k]!) }));
  return { outcomes: outcomes as Outcome[], from: claimed.last - claimed.count, end: appended.end };
}

function byDoor(batch: Waiting[], indexes: number[]): Map<AnyDoor, number[]> {
  const groups = new Map<AnyDoor, number[]>();
  for (const i of indexes) {
    const door = batch[i]!.door; // indexes are positions in batch
    groups.set(door, [...(groups.get(door) ?? []), i]);
  }
  return groups;
}

/** reply_to must name an imprint that exists (its body may have left the window; the thread stays). */
export function noReplyTarget(replyTo: number): Refusal {
  return new Refusal('invalid_request', {
    issues: [{ path: 'reply_to', message: `No public imprint #${replyTo} to reply to.` }],
  });
}

async function missingReplyTargets(tx: Sql, replyTos: Array<number | null>): Promise<Set<number>> {
  const wanted = [...new Set(replyTos.filter((r): r is number => r !== null))];
  if (wanted.length === 0) return new Set();
  // Raw: the imprint write path (bench), one prepared statement per batch.
  const found = await tx.query<Pick<RowOf<typeof Imprint>, 'sequence'>>(
    'select sequence from imprints where sequence = any($1::bigint[]) and held = false',
    [wanted],
  );
  const present = new Set(found.map((row) => row.sequence));
  return new Set(wanted.filter((r) => !present.has(r)));
}

/** One author's gate facts: their newest bodies (null: none yet), their imprints in the burst window. */
type GateFacts = Counts<'burst'> & { bodies: NonNullable<RowOf<typeof Imprint>['body']>[] | null };

/**
 * The spam gate for every draft, with each author's recent facts read in one query (after the
 * doors' locks). Retained bodies are the window's, so an author's are read above `windowStart`
 * (the newest sequence before the window): along the index (author_ref, sequence desc), an author
 * with a long history costs the window, not that history.
 */
export async function gateDrafts(tx: Sql, drafts: Draft[], windowStart: number): Promise<GateVerdict[]> {
  if (drafts.length === 0) return [];
  // Raw: the imprint write path (bench); per-author subqueries over unnest … with ordinality.
  const facts = await tx.query<GateFacts>(
    `select array(select body from imprints where author_ref = a.ref and sequence > $3 and body is not null
                   order by sequence desc limit 20) as bodies,
            (select count(*) from imprints where author_ref = a.ref and created_at > a.since) as burst
     from unnest($1::text[], $2::timestamptz[]) with ordinality as a(ref, since, n) order by a.n`,
    [
      drafts.map((d) => d.authorRef),
      drafts.map((d) => new Date(d.at.getTime() - BURST_WINDOW_MS).toISOString()),
      windowStart,
    ],
  );
  // One row per draft, in draft order (unnest … with ordinality).
  return drafts.map((draft, i) => {
    const { bodies, burst } = facts[i]!;
    return gate({ body: draft.body, recentBodies: bodies ?? [], recentCount: burst });
  });
}
