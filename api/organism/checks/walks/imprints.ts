/**
 * The imprints walk: by sequence, each imprint is present (numbers run without a gap) and names
 * its own `record.imprint` receipt for `imprint:<n>` (a receipt whose subject was erased passes).
 * Feeds the gap_free_sequence and receipts trials, and the Record's half of linearizability
 * (record_order: no number recorded before the one below it); the counter, the lowest and highest number are
 * read whole each run (three index reads), so a number moved past the counter shows at once.
 */
import type { Sql } from '../../../db/database.ts';
import { pad, type Problem, type Step, type Walk } from './walk.ts';
import { one } from '../../../db/rows.ts';
import { constant, type Row } from '../../../db/kysely.ts';

export interface ImprintCursor {
  /** the next sequence to verify */
  next: number;
}

async function counter(sql: Sql): Promise<number> {
  const [row] = await sql.kysely
    .selectFrom('record_counter')
    .select('value')
    .where('id', '=', constant(1))
    .execute();
  return row?.value ?? 0;
}

/** An imprint and its receipt, left joined (null where none is found). */
type Walked = Pick<Row<'imprints'>, 'sequence'> & {
  /** created_at to the microsecond, sortable text */
  at: string;
  receipt: Row<'receipts'>['id'] | null;
  step: Row<'receipts'>['step'] | null;
  subject: Row<'receipts'>['subject'];
};

/** ISO time to the microsecond: text that sorts as the times do (the linearizability order). */
const MICROS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
const millis = (at: string) => `${at.slice(0, 23)}Z`;

/**
 * linearizability (record_order): a later number never carries an earlier recorded time than the
 * number before it. The detail is the example GET /api/linearizability lists.
 */
function order(prev: Walked | undefined, row: Walked): Problem | null {
  if (!prev || prev.sequence !== row.sequence - 1 || row.at >= prev.at) return null;
  return {
    trial: 'record_order',
    key: pad(row.sequence),
    detail: JSON.stringify({
      earlier_sequence: prev.sequence,
      later_sequence: row.sequence,
      earlier_number_at: millis(prev.at),
      later_number_at: millis(row.at),
    }),
  };
}

/** `before` is the imprint just before `from` when it is stored (the order check's first pair). */
function check(rows: Walked[], from: number, last: number, before?: Walked): Problem[] {
  const problems: Problem[] = [];
  let expected = from;
  let prev = before;
  const missing = (upTo: number) => {
    if (upTo < expected) return;
    problems.push({
      trial: 'gap_free_sequence',
      key: pad(expected),
      detail:
        upTo === expected ? `imprint ${expected} is missing` : `imprints ${expected}..${upTo} are missing`,
    });
  };
  for (const row of rows) {
    const sequence = row.sequence;
    missing(sequence - 1);
    expected = sequence + 1;
    const disorder = order(prev, row);
    if (disorder) problems.push(disorder);
    prev = row;
    if (row.receipt === null) {
      problems.push({
        trial: 'receipts',
        key: pad(sequence),
        detail: `imprint ${sequence} names a receipt that does not exist`,
      });
    } else if (
      row.step !== 'record.imprint' ||
      (row.subject !== null && row.subject !== `imprint:${sequence}`)
    ) {
      problems.push({
        trial: 'receipts',
        key: pad(sequence),
        detail: `imprint ${sequence} names a receipt of another step or subject`,
      });
    }
  }
  missing(last);
  return problems;
}

export const imprintsWalk: Walk<ImprintCursor> = {
  name: 'imprints',
  trials: ['gap_free_sequence', 'receipts', 'record_order'],
  genesis: { next: 1 },
  key: (cursor) => pad(cursor.next),
  async step(sql, _ctx, cursor, budget, until): Promise<Step<ImprintCursor>> {
    const head = until ? until.next - 1 : await counter(sql);
    const last = Math.min(head, cursor.next + budget - 1);
    if (last < cursor.next) return { cursor, checked: 0, problems: [], end: true };
    const rows = await sql.query<Walked>(
      `select i.sequence, to_char(i.created_at at time zone 'UTC', ${MICROS}) as at, r.id as receipt, r.step, r.subject
         from imprints i left join receipts r on r.id = i.receipt_id
        where i.sequence >= $1 and i.sequence <= $2 order by i.sequence`,
      [cursor.next - 1, last],
    );
    const before = rows[0]?.sequence === cursor.next - 1 ? rows.shift() : undefined;
    return {
      cursor: { next: last + 1 },
      checked: last - cursor.next + 1,
      problems: check(rows, cursor.next, last, before),
      end: last >= head,
    };
  },
};

/** The counter and the lowest and highest stored numbers: three reads by key, whatever the Record's size. */
export async function sequenceBounds(
  sql: Sql,
): Promise<{ counter: number; min: number | null; max: number | null }> {
  const row = one(
    await sql.kysely
      .selectNoFrom((eb) => [
        eb.selectFrom('record_counter').select('value').where('id', '=', constant(1)).as('counter'),
        eb
          .selectFrom('imprints')
          .select((inner) => inner.fn.min('sequence').as('n'))
          .as('min'),
        eb
          .selectFrom('imprints')
          .select((inner) => inner.fn.max('sequence').as('n'))
          .as('max'),
      ])
      .execute(),
  );
  return { counter: row.counter ?? 0, min: row.min ?? null, max: row.max ?? null };
}
