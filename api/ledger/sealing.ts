/**
 * Sealing: the job exactly one process performs, closing each due UTC day under its anchor.
 */
import type { AppContext } from '../context.ts';
import { GENESIS_ANCHOR_HASH, anchorHash, signAnchor } from '../../shared/ledger/index.ts';
import { type StoredAnchor } from './anchors.ts';
import { rootOf } from './tile-math.ts';
import { streamedRoot } from './tiling.ts';
import type { Sql } from '../db/database.ts';
import type { RowOf } from '../db/rows.ts';
import type { Anchor, LogDay } from './entities.ts';
import { SEAL_LOCK, logKeyName, privateKey } from './log.ts';
import { utcDay } from '../../shared/time.ts';

export interface SealResult {
  /** false when another process holds the sealing lock right now */
  ran: boolean;
  sealed: StoredAnchor[];
}

/**
 * Seals every day before today (UTC, by ctx.clock) that has leaves and no anchor, in date order,
 * chaining each anchor to the previous one. Exactly one process does it at a time:
 * `pg_try_advisory_xact_lock` inside the transaction (others skip), and `log_days.sealed_at` plus
 * the anchors primary key make a repeated run a no-op. Setting sealed_at takes the day's row lock,
 * so a receipt still being added to that day commits first (and is sealed in) or moves to the next
 * day. A sealed day never changes.
 */
export async function sealDueDays(ctx: AppContext): Promise<SealResult> {
  const today = utcDay(ctx.clock.now());
  return ctx.db.transaction(async (tx) => {
    const [lock] = await tx.kysely
      .selectNoFrom((eb) => eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.val(SEAL_LOCK)]).as('locked'))
      .execute();
    if (!lock?.locked) return { ran: false, sealed: [] };
    // Raw: sealing's statements are its invariant (the due days, the chain's head, sealed_at under the day's row lock).
    const due = await tx.query<Pick<RowOf<typeof LogDay>, 'date'>>(
      `select to_char(date, 'YYYY-MM-DD') as date from log_days where date < $1 and sealed_at is null and size > 0 order by date`,
      [today],
    );
    const sealed: StoredAnchor[] = [];
    if (due.length === 0) return { ran: true, sealed };
    const [last] = await tx.query<Pick<RowOf<typeof Anchor>, 'anchor_hash'>>(
      'select anchor_hash from anchors order by date desc limit 1',
    );
    let previous = last?.anchor_hash ?? GENESIS_ANCHOR_HASH;
    const keyName = logKeyName(ctx);
    const now = ctx.clock.now().toISOString();
    for (const { date } of due) {
      const [day] = await tx.query<Pick<RowOf<typeof LogDay>, 'size' | 'frontier'>>(
        'update log_days set sealed_at = $2 where date = $1 and sealed_at is null returning size, frontier',
        [date, now],
      );
      if (!day) continue;
      const root = await dayRoot(tx, date, day.size, day.frontier);
      const anchor = await signAnchor(
        { date, tree_size: day.size, root_hash: root, previous_anchor_hash: previous },
        privateKey(ctx),
        keyName,
      );
      const hash = await anchorHash(anchor);
      await tx.query(
        `insert into anchors (date, tree_size, root_hash, previous_anchor_hash, anchor_hash, key_id, signature, checkpoint, sealed_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          date,
          anchor.tree_size,
          anchor.root_hash,
          anchor.previous_anchor_hash,
          hash,
          anchor.key_id,
          anchor.signature,
          anchor.checkpoint,
          now,
        ],
      );
      sealed.push({ ...anchor, anchor_hash: hash, sealed_at: now });
      previous = hash;
    }
    return { ran: true, sealed };
  });
}

/**
 * The root a day is sealed under: its stored interior's (tiles.ts), checked against the root of
 * its leaves streamed a page at a time (bounded memory whatever the day's size), because an anchor
 * is signed for good and the interior is derived data. A day logged before tiles has only the
 * streamed root.
 */
async function dayRoot(tx: Sql, date: string, size: number, frontier: Uint8Array | null): Promise<string> {
  const streamed = (await streamedRoot(tx, date, size)).toString('hex');
  if (frontier === null) return streamed;
  const stored = rootOf(size, frontier).toString('hex');
  if (stored !== streamed) throw new Error(`day ${date}: its stored tree interior disagrees with its leaves`);
  return stored;
}
