/**
 * INTERFACE.md: open submissions are quarantined from collective learning "until attested". When a
 * handle is first attested, its earlier open imprints leave quarantine in the attestation's own
 * transaction. History is not rewritten: each released imprint keeps its number, time and receipt,
 * gets a row in `quarantine_releases` saying when and by which receipt it was released, and the
 * release itself is a step with its own receipt (`agents.quarantine_release`, subject `agent:<handle>`).
 */
import type { Sql } from '../db/database.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { one, type Counts } from '../db/rows.ts';

export interface QuarantineRelease {
  released: number;
  receipt_id: string | null;
}

/** Releases the handle's quarantined imprints (none: no receipt). Runs inside the attestation's transaction. */
export async function releaseQuarantine(tx: Sql, handle: string, at: Date): Promise<QuarantineRelease> {
  const waiting = one(
    await tx.query<Counts<'n'>>(
      `select count(*) as n from imprints where author_kind = 'agent' and author_ref = $1 and unattested`,
      [handle],
    ),
  );
  if (waiting.n === 0) return { released: 0, receipt_id: null };
  const receipt = await recordReceipt(tx, {
    step: 'agents.quarantine_release',
    subject: `agent:${handle}`,
    at,
  });
  const moved = one(
    // Raw: one statement releases, records each release and counts both (a CTE of two writes).
    await tx.query<Counts<'n' | 'shown'>>(
      `with released as (
       update imprints set unattested = false
        where author_kind = 'agent' and author_ref = $1 and unattested
       returning sequence, held),
     kept as (
       insert into quarantine_releases (sequence, handle, released_at, receipt_id)
       select sequence, $1, $2, $3 from released
       returning sequence)
     select (select count(*) from kept) as n, (select count(*) from released where not held) as shown`,
      [handle, at.toISOString(), receipt.id],
    ),
  );
  const released = moved.n;
  // imprints_quarantined counts imprints kept from learning, held or unattested: a held one stays counted.
  await tx.query(
    'update agents set imprints_quarantined = greatest(imprints_quarantined - $2, 0) where handle = $1',
    [handle, moved.shown],
  );
  return { released, receipt_id: receipt.id };
}
