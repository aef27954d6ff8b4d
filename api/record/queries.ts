import type { Sql } from '../db/database.ts';
import { projectImprint, type ImprintRow, type PublicImprint } from '../../shared/record/imprint.ts';

const PUBLIC_COLUMNS = 'sequence, kind, body, author_kind, author_ref, public_author, created_at, unattested, held, held_reason, reply_to, receipt_id';

/** The newest public imprints (held ones never), newest first; `before` pages backwards. */
export async function newestImprints(sql: Sql, options: { limit: number; before?: number }): Promise<PublicImprint[]> {
  const rows = await sql.query<ImprintRow>(
    `select ${PUBLIC_COLUMNS} from imprints where held = false ${options.before ? 'and sequence < $2' : ''}
     order by sequence desc limit $1`,
    options.before ? [options.limit, options.before] : [options.limit],
  );
  return rows.map(projectImprint).filter((imprint): imprint is PublicImprint => imprint !== null);
}

/** Public imprints after a cursor (for polling), oldest first. */
export async function imprintsSince(sql: Sql, cursor: number, limit: number): Promise<PublicImprint[]> {
  const rows = await sql.query<ImprintRow>(
    `select ${PUBLIC_COLUMNS} from imprints where held = false and sequence > $1 order by sequence asc limit $2`,
    [cursor, limit],
  );
  return rows.map(projectImprint).filter((imprint): imprint is PublicImprint => imprint !== null);
}

export async function recordCounts(sql: Sql): Promise<{ lifetime: number; retained: number; unattested: number; held: number }> {
  const [row] = await sql.query<Record<string, string | number>>(
    `select (select value from record_counter where id = 1) as lifetime,
            count(*) filter (where body is not null) as retained,
            count(*) filter (where unattested) as unattested,
            count(*) filter (where held) as held
     from imprints`,
  );
  return { lifetime: Number(row.lifetime), retained: Number(row.retained), unattested: Number(row.unattested), held: Number(row.held) };
}
