/**
 * The ledger walk: the log day by day, leaf by leaf. Each receipt's leaf recomputes from its
 * fields and its subject from the digest (unless erased); the stored leaf hashes are folded into
 * the day's compact Merkle range as they are verified (the O(log n) right edge of the tree, kept
 * in the cursor), so when a sealed day is finished its root is compared with the anchor's without
 * reading the day again. Then the anchor: its signature and checkpoint, its stored hash, its link
 * to the anchor before it, and (sealed_days_complete) one anchor whose size is the day's size and
 * its number of receipts. An open day is walked up to its committed prefix and waited on. Within
 * a day, each leaf's recorded_at is checked against the leaf before it (log_order, the log's half
 * of linearizability).
 */
import type { AppContext } from '../../../context.ts';
import type { Sql } from '../../../db/database.ts';
import { createHash } from 'node:crypto';
import {
  EMPTY_TREE_ROOT_HEX,
  GENESIS_ANCHOR_HASH,
  anchorHash,
  isSubjectSalt,
  receiptLeafData,
  verifyAnchor,
} from '../../../../shared/ledger/index.ts';
import { anchorOf, wireAnchor } from '../../../ledger/anchors.ts';
import { RECEIPT_COLUMNS, anchorKey, logKeyName, type ReceiptRow } from '../../../ledger/log.ts';
import { pad, type Problem, type Step, type Walk } from './walk.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../../../db/kysely.ts';

export interface LedgerCursor {
  /** the day being walked (or the first day it may be: the day after the last one finished) */
  date: string;
  /** the next leaf index of that day */
  index: number;
  /** the day's compact range so far: roots of perfect subtrees, largest first (hex) */
  stack: string[];
  /** a leaf of the day was missing: its root cannot be rebuilt (already a problem) */
  broken: boolean;
  /** hash of the last anchor verified (null after a sealed day without one) */
  prev_hash: string | null;
  /** days finished and leaves verified in this lap */
  days: number;
  leaves: number;
}

const GENESIS: LedgerCursor = {
  date: '0001-01-01',
  index: 0,
  stack: [],
  broken: false,
  prev_hash: GENESIS_ANCHOR_HASH,
  days: 0,
  leaves: 0,
};

const keyOf = (c: Pick<LedgerCursor, 'date' | 'index'>) => `${c.date}:${pad(c.index, 10)}`;
const dayKey = (date: string) => `${date}:~`;
const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/*
 * RFC 9162 hashing as shared/ledger/hash.ts defines it (leaf = SHA-256(0x00 ‖ data), node =
 * SHA-256(0x01 ‖ left ‖ right), the receipt's leaf data from receiptLeafData), on node's
 * synchronous SHA-256: a run hashes tens of thousands of leaves, about twenty times faster than
 * WebCrypto's promise per digest.
 */
const sha256 = (...parts: (Uint8Array | string)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);
const nodeHex = (left: string, right: string) =>
  sha256(NODE, Buffer.from(left, 'hex'), Buffer.from(right, 'hex'));

/** Appends leaf number `index` (0-based) to a compact range: merges as many times as index has trailing ones. */
function fold(stack: string[], index: number, leaf: string): string[] {
  const out = [...stack];
  let node = leaf;
  for (let n = index; n % 2 === 1; n = Math.floor(n / 2)) node = nodeHex(out.pop()!, node);
  out.push(node);
  return out;
}

/** The RFC 9162 root of a compact range: its subtrees folded from the right. */
function rootOf(stack: string[]): string {
  let root = stack.at(-1);
  if (root === undefined) return EMPTY_TREE_ROOT_HEX;
  for (let i = stack.length - 2; i >= 0; i--) root = nodeHex(stack[i]!, root); // 0 ≤ i < length
  return root;
}

/** ISO time to the microsecond: text that sorts as the times do. */
const MICROS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
type Timed = ReceiptRow & { at?: string };

/** linearizability (log_order): within a day, a later leaf never carries an earlier recorded_at. */
function order(date: string, prev: Timed | undefined, row: Timed): Problem | null {
  const index = row.leaf_index;
  if (!prev || prev.leaf_index !== index - 1 || !prev.at || !row.at || row.at >= prev.at) return null;
  return {
    trial: 'log_order',
    key: keyOf({ date, index }),
    detail: JSON.stringify({ date, earlier_leaf_index: index - 1, later_leaf_index: index }),
  };
}

function leafProblem(row: ReceiptRow): string | null {
  const wrong: string[] = [];
  let leaf: string | null = null;
  try {
    leaf = sha256(LEAF, receiptLeafData(row));
  } catch {
    // malformed fields (a digest that is not 64 hex characters): the leaf cannot recompute
  }
  if (leaf !== row.leaf_hash) wrong.push('its leaf does not recompute');
  if (
    row.subject !== null &&
    row.subject_salt !== null &&
    (!isSubjectSalt(row.subject_salt) ||
      sha256(Buffer.from(row.subject_salt, 'hex'), Buffer.from(row.subject, 'utf8')) !== row.subject_digest)
  )
    wrong.push('its subject does not match its digest');
  return wrong.length ? `receipt ${row.id}: ${wrong.join('; ')}` : null;
}

/** A finished sealed day: its anchor against the leaves just walked. */
async function closeDay(
  sql: Sql,
  ctx: AppContext,
  c: LedgerCursor,
  size: number,
): Promise<{ problems: Problem[]; hash: string | null }> {
  const anchor = await anchorOf(sql, c.date);
  const key = dayKey(c.date);
  if (!anchor)
    return {
      problems: [
        { trial: 'sealed_days_complete', key, detail: `log day ${c.date} is sealed without an anchor` },
      ],
      hash: null,
    };
  const problems: Problem[] = [];
  if (anchor.tree_size !== size || anchor.tree_size !== c.index)
    problems.push({
      trial: 'sealed_days_complete',
      key,
      detail: `log day ${c.date}: anchor size ${anchor.tree_size}, day size ${size}, ${c.index} leaves stored`,
    });
  const wrong: string[] = [];
  const verified = await verifyAnchor(
    wireAnchor(anchor),
    await anchorKey(ctx, anchor.key_id),
    logKeyName(ctx),
  );
  if (!verified.ok) wrong.push(verified.reason ?? 'does not verify');
  const hash = await anchorHash(anchor);
  if (hash !== anchor.anchor_hash) wrong.push('stored hash differs');
  if (c.prev_hash !== null && anchor.previous_anchor_hash !== c.prev_hash)
    wrong.push('does not link to the anchor before it');
  if (!c.broken && rootOf(c.stack) !== anchor.root_hash) wrong.push('stored leaves do not rebuild its root');
  if (wrong.length)
    problems.push({ trial: 'anchor_chain', key, detail: `anchor ${c.date}: ${wrong.join('; ')}` });
  return { problems, hash };
}

async function step(
  sql: Sql,
  ctx: AppContext,
  from: LedgerCursor,
  budget: number,
  until: LedgerCursor | null,
): Promise<Step<LedgerCursor>> {
  let c = from;
  let left = budget;
  const problems: Problem[] = [];
  const untilKey = until ? keyOf(until) : null;
  const done = (end: boolean) => ({ cursor: c, checked: budget - left, problems, end });
  while (left > 0) {
    if (untilKey !== null && keyOf(c) >= untilKey) return done(true);
    const [day] = await sql.kysely
      .selectFrom('log_days')
      .select((eb) => [
        fragment<string>`to_char(date, 'YYYY-MM-DD')`.as('date'),
        'size',
        eb('sealed_at', 'is not', null).$castTo<boolean>().as('sealed'),
      ])
      .where('date', '>=', c.date)
      .orderBy('date')
      .limit(constant(1))
      .execute();
    if (!day) return done(true);
    if (day.date !== c.date) c = { ...c, date: day.date, index: 0, stack: [], broken: false };
    const stop = until && until.date === day.date ? until.index : 2 ** 31 - 1;
    // The leaf before the first one verified here, when stored: the first pair of the order check.
    const lead = c.index > 0 ? 1 : 0;
    const rows = await sql.query<Timed>(
      `select ${RECEIPT_COLUMNS}, to_char(recorded_at at time zone 'UTC', ${MICROS}) as at
         from receipts where log_date = $1 and leaf_index >= $2 and leaf_index < $3
        order by leaf_index limit $4`,
      [day.date, c.index - lead, stop, left + lead],
    );
    let prev = lead && rows[0]?.leaf_index === c.index - 1 ? rows.shift() : undefined;
    if (lead && !prev && rows.length > left) rows.pop();
    for (const row of rows) {
      const disorder = order(day.date, prev, row);
      if (disorder) problems.push(disorder);
      prev = row;
      const index = row.leaf_index;
      if (index !== c.index) {
        if (!day.sealed) return done(true); // a leaf still in flight ends an open day's prefix
        problems.push({
          trial: 'anchor_chain',
          key: keyOf(c),
          detail: `log day ${day.date}: leaves ${c.index}..${index - 1} are missing`,
        });
        c = { ...c, index, broken: true };
      }
      const wrong = leafProblem(row);
      if (wrong) problems.push({ trial: 'anchor_chain', key: keyOf(c), detail: wrong });
      const stack = c.broken ? c.stack : fold(c.stack, index, row.leaf_hash);
      c = { ...c, index: index + 1, stack, leaves: c.leaves + 1 };
      left--;
    }
    if (left === 0) break;
    if (until && until.date === day.date) return done(true);
    if (!day.sealed) return done(true);
    const closed = await closeDay(sql, ctx, c, day.size);
    problems.push(...closed.problems);
    c = { ...GENESIS, date: nextDay(day.date), prev_hash: closed.hash, days: c.days + 1, leaves: c.leaves };
  }
  return done(false);
}

export const ledgerWalk: Walk<LedgerCursor> = {
  name: 'ledger',
  trials: ['anchor_chain', 'sealed_days_complete', 'log_order'],
  genesis: GENESIS,
  key: keyOf,
  step,
};
