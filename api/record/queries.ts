import type { Sql } from '../db/database.ts';
import { one, type Counts, type RowOf } from '../db/rows.ts';
import { projectImprint, RECORD_WINDOW, type PublicImprint } from '../../shared/record/imprint.ts';
import {
  projectHeldSpam,
  type ContributionRecord,
  type HeldSpamRecord,
  type HeldSpamSummary,
} from '../../shared/boundaries/projectors/spam.ts';
import type { ActorIdentity } from '../../shared/boundaries/actor-ref.ts';
import type { Imprint } from './entities.ts';
import { constant } from '../db/kysely.ts';
import { talliesUnder } from '../db/tallies.ts';

const PUBLIC_COLUMNS =
  'sequence, kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id';
/** An imprint as PUBLIC_COLUMNS selects it: every column but the search vectors. */
type ImprintRow = Omit<RowOf<typeof Imprint>, 'search' | 'search_english'>;

const publicOnly = (rows: ImprintRow[]) =>
  rows.map(projectImprint).filter((imprint): imprint is PublicImprint => imprint !== null);

/** The newest public imprints (held ones never), newest first; `before` pages backwards. */
export async function newestImprints(
  sql: Sql,
  options: { limit: number; before?: number; kind?: string },
): Promise<PublicImprint[]> {
  const params: unknown[] = [options.limit];
  let where = 'held = false';
  if (options.before) {
    params.push(options.before);
    where += ` and sequence < $${params.length}`;
  }
  if (options.kind) {
    params.push(options.kind);
    where += ` and kind = $${params.length}`;
  }
  const rows = await sql.query<ImprintRow>(
    `select ${PUBLIC_COLUMNS} from imprints where ${where} order by sequence desc limit $1`,
    params,
  );
  return publicOnly(rows);
}

/** Public imprints after a cursor (for polling), oldest first. `threads` keeps questions and replies only. */
export async function imprintsSince(
  sql: Sql,
  cursor: number,
  limit: number,
  options: { threads?: boolean } = {},
): Promise<PublicImprint[]> {
  const rows = await sql.query<ImprintRow>(
    `select ${PUBLIC_COLUMNS} from imprints where held = false and sequence > $1
       ${options.threads ? "and (kind = 'question' or reply_to is not null)" : ''}
     order by sequence asc limit $2`,
    [cursor, limit],
  );
  return publicOnly(rows);
}

export type RecordCounts = Counts<'lifetime' | 'retained' | 'unattested' | 'held'>;

/**
 * The Record's counts, each read without scanning the table, so they cost the same for a Record
 * of ten imprints or ten million: lifetime is the counter; retained counts the bodies among the
 * newest RECORD_WINDOW sequence numbers (no body survives outside them: docs/record.md, "The
 * window"), a primary-key range; unattested and held are the database's own tallies (migration
 * 0022). Shared by the Record view and /api/stats.
 */
export const RECORD_COUNTS = `(select value from record_counter where id = 1) as lifetime,
       (select count(*) from imprints where sequence > (select value from record_counter where id = 1) - ${RECORD_WINDOW} and body is not null) as retained,
       (select value from record_tallies where name = 'imprints_unattested') as unattested,
       (select value from record_tallies where name = 'imprints_held') as held`;

export async function recordCounts(sql: Sql): Promise<RecordCounts> {
  const row = one(await sql.query<RecordCounts>(`select ${RECORD_COUNTS}`));
  return {
    lifetime: row.lifetime,
    retained: row.retained,
    unattested: row.unattested,
    held: row.held,
  };
}

/**
 * The held imprints as records for the held_spam projector, one per rule with its tally as the
 * record's count (9,065 held imprints on the 1,000,000-imprint Record were as many records per
 * request): counts and rules come out, the body and name never do (they are not even read here;
 * the projector would drop them anyway).
 */
export async function heldRecords(sql: Sql): Promise<HeldSpamRecord[]> {
  const rows = await heldByRule(sql);
  return rows.map((row) => ({
    hold_id: '',
    body: '',
    name: null,
    author: null,
    rule: row.held_reason,
    status: 'held',
    held_at: '',
    count: row.n,
  }));
}

/** The held_spam summary: counts by rule, read from the tallies. */
export async function heldSummary(sql: Sql): Promise<HeldSpamSummary> {
  return projectHeldSpam(await heldRecords(sql));
}

/** Held imprints by the rule that holds them: the tallies of migration 0044, not a count of the held. */
export async function heldByRule(sql: Sql): Promise<{ held_reason: string; n: number }[]> {
  return (await talliesUnder(sql, 'imprints_held:'))
    .filter((kept) => kept.value > 0)
    .map((kept) => ({ held_reason: kept.key, n: kept.value }));
}

function actorOf(row: ImprintRow): ActorIdentity {
  return row.author_kind === 'agent'
    ? { actor_id: row.author_ref, kind: 'agent', handle: row.public_author }
    : { actor_id: row.author_ref, kind: 'sovereign', tag: row.public_author };
}

/** Rows as the contribution_feed projector takes them (raw refs inside; the projector drops them). */
export async function contributionRecords(
  sql: Sql,
  limit: number,
  options: { threads?: boolean } = {},
): Promise<ContributionRecord[]> {
  const rows = await sql.query<ImprintRow>(
    `select ${PUBLIC_COLUMNS} from imprints where held = false and body is not null
       ${options.threads ? "and (kind = 'question' or reply_to is not null)" : ''}
     order by sequence desc limit $1`,
    [limit],
  );
  return rows.map((row) => ({
    sequence: row.sequence,
    kind: row.kind,
    body: row.body,
    author: actorOf(row),
    sovereign_id: row.author_kind === 'sovereign' ? row.author_ref : null,
    quarantine: row.held ? 'held' : row.unattested ? 'unattested' : 'none',
    hold_rule: row.held_reason,
    receipt_id: row.receipt_id,
    reply_to: row.reply_to === null ? null : row.reply_to,
    created_at: new Date(row.created_at).toISOString(),
  }));
}

/** Sequence numbers of the latest 20 evictions (bodies that left the window): numbers only, never text. */
export async function latestEvictions(sql: Sql): Promise<number[]> {
  const rows = await sql.kysely
    .selectFrom('imprints')
    .select('sequence')
    .where('body', 'is', null)
    .orderBy('sequence', 'desc')
    .limit(constant(20))
    .execute();
  return rows.map((row) => row.sequence);
}
