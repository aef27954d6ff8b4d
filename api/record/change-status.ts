import type { Sql } from '../db/database.ts';
import type { ChangeStatus } from '../ledger/change-status.ts';
import type { TimelineEntry } from '../ledger/subjects.ts';
import { RECORD_WINDOW } from '../../shared/record/imprint.ts';
import { sql as fragment } from 'kysely';

/** Change status of `imprint:<sequence>`: in the Record, held by the spam gate, or out of the window. */
export async function imprintChangeStatus(
  sql: Sql,
  ref: string,
  subject: string,
  now: Date,
): Promise<ChangeStatus | null> {
  if (!/^\d{1,15}$/.test(ref)) return null;
  const [row] = await sql.kysely
    .selectFrom('imprints')
    .select((eb) => [eb('body', 'is not', null).as('has_body'), 'held', 'unattested'])
    .where('sequence', '=', Number(ref))
    .execute();
  if (!row) return null;
  const status = row.held ? 'held' : row.has_body ? 'in_record' : 'left_window';
  const detail = row.held
    ? 'Held by the spam gate: its body and name are not public; stewards triage it.'
    : row.has_body
      ? `In the Record with its body (one of the newest ${RECORD_WINDOW}).${row.unattested ? ' Unattested: kept out of collective learning.' : ''}`
      : `Counted in the lifetime total; its body left the ${RECORD_WINDOW}-imprint window and cannot be recovered.`;
  return { subject, status, detail, as_of: now.toISOString() };
}

/**
 * Events of `imprint:<sequence>` that no receipt records: its body leaving the window, when the
 * imprint RECORD_WINDOW places later arrived (the ledger's subject events, api/ledger/subjects.ts).
 */
export async function imprintEvents(sql: Sql, ref: string, subject: string): Promise<TimelineEntry[]> {
  if (!/^\d{1,15}$/.test(ref)) return [];
  const [evictor] = await sql.kysely
    .selectFrom('imprints')
    .select(
      fragment<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('at'),
    )
    .where('sequence', '=', Number(ref) + RECORD_WINDOW)
    .execute();
  if (!evictor) return [];
  return [
    {
      at: evictor.at,
      status: 'left_window',
      title: `${subject} left the ${RECORD_WINDOW}-imprint window; its body is gone`,
      receipt_id: null,
    },
  ];
}
