import type { Sql } from './db/database.ts';
import type { Row } from './db/kysely.ts';

/**
 * The shape of a family's personal-data declaration (its api/<family>/personal-data.ts) and the
 * small helpers declarations share. The registry of declarations is api/personal-data.ts.
 */

/** The person an export or erasure is about. */
export interface DataSubject {
  /** The raw sovereign id (never leaves the service except in the person's own export). */
  id: string;
  /** The public 4-hex tag. */
  tag: string;
  /** `sovereign:<tag>`, as receipts and steward records name the person. */
  ref: string;
  /** The session asking for the export, so the bundle can mark it `current`. */
  sessionHash?: string;
}

/** During erasure: the anonymous member the person's kept acts move to (see `eraseSovereign`). */
export interface ErasureSubject extends DataSubject {
  anonymousId: string;
}

/** What an erasure does to a table's personal columns. */
export type Disposition =
  /** removed, or emptied and unlinked: the row (if it stays) names no one and holds none of the person's words */
  | 'erase'
  /** kept under a stated basis, but unlinked from the tag and the raw id */
  | 'keep';

export interface TableDeclaration {
  table: string;
  /** Each column that can hold a sovereign id, tag, email, callsign or words a person wrote, and what it holds. */
  personal: Record<string, string>;
  /** The table's other text, id or JSON columns: they hold none of that (machine values, service text, agents' data). */
  impersonal: string[];
  disposition: Disposition;
  /** Why: what erasure does, or the basis for keeping (shown in docs/identity.md's declarations table). */
  why: string;
  /** Why the table is not in the person's export bundle, when it is not (e.g. it names no author). */
  notExported?: string;
  /** Personal columns whose words an erasure keeps (unattributed) under the `why` basis. */
  keptWords?: string[];
  /** The column naming the person by raw id: what `/reconcile` moves when two rows of one person become one. */
  holder?: Holder;
}

/**
 * How a table names its holder, for reconciling two rows of one person (api/identity/merge.ts):
 * `column` holds the raw id (rows of another kind are skipped when `kind` names the kind column);
 * `publicTag` / `publicRef` hold the bare tag or `sovereign:<tag>` and follow the holder; `unique`
 * are the other columns that make one act per person (the absorbed row's duplicate is dropped: one
 * person, one act; `where` narrows it, given a row alias); `merge` replaces the move with the
 * table's own statements.
 */
export interface Holder {
  column: string;
  kind?: string;
  publicTag?: string;
  publicRef?: string;
  unique?: { columns: string[]; where?: (row: string) => string };
  merge?: (tx: Sql, fromId: string, toId: string, tag: string) => Promise<number>;
}

export interface FamilyDeclaration {
  family: string;
  tables: TableDeclaration[];
  /** The family's part of the export bundle: every item of the person's, keyed by section name. */
  export(sql: Sql, subject: DataSubject): Promise<Record<string, unknown>>;
  /** Inside the steward's erasure transaction: erase or unlink every row of the person's; returns counts per table. */
  erase(tx: Sql, subject: ErasureSubject, now: Date): Promise<Record<string, number>>;
  /** Receipt ids of the person's acts in this family (they go into the bundle and are redacted on erasure). */
  receiptIds?(sql: Sql, subject: DataSubject): Promise<string[]>;
}

/** The marker an erased member's tag and public refs become: not a tag, so every projector shows no one. */
export const ERASED_TAG = '----';
/** What a not-null text column a person wrote becomes on erasure. */
export const ERASED_TEXT = '[erased]';

/** Receipt ids of rows matching `where`, for a family's `receiptIds`. */
/** A receipt id as a family's table holds it (any table, any receipt column; some are nullable). */
type ReceiptRef = { id: Row<'receipts'>['id'] | null };

export async function receiptIdsOf(
  sql: Sql,
  queries: { table: string; column?: string; where: string; params: unknown[] }[],
): Promise<string[]> {
  const out: string[] = [];
  for (const q of queries) {
    const rows = await sql.query<ReceiptRef>(
      `select ${q.column ?? 'receipt_id'} as id from ${q.table} where ${q.where}`,
      q.params,
    );
    for (const r of rows) if (r.id) out.push(r.id);
  }
  return out;
}

/** Count of rows an update or delete touched, for `erase` results. */
export async function touched(tx: Sql, statement: string, params: unknown[]): Promise<number> {
  const rows = await tx.query(`${statement} returning 1`, params);
  return rows.length;
}
