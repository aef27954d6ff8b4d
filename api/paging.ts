/**
 * Paging by key, the one mechanism every list that grows with the population uses (issue 20,
 * point 6; the query and answer fields are shared/paging.ts). A list names its key (columns that
 * order it and are unique together) and its order; a page asks for `limit + 1` rows after (or,
 * going back, before) the key in the cursor, so it reads its own rows whatever the history, and a
 * row arriving between pages cannot shift the rows already read (an offset would). The cursor is
 * base64url JSON of the direction and the key; one this code did not write is a 400 naming
 * `after`, never a database error.
 */
import { Refusal } from '../shared/errors.ts';

/** How a key column is compared in SQL and checked in a cursor. */
export type KeyType = 'text' | 'bigint' | 'date' | 'timestamptz';
export type KeyValue = string | number;

export interface KeyOrder {
  /** the list's path: its links and its refusal name it */
  path: string;
  /** the ordering key, most significant first: SQL expressions over the list's rows */
  columns: readonly { sql: string; type: KeyType }[];
  /** the list's order ('desc': newest first) */
  order: 'asc' | 'desc';
}

export interface Cursor {
  dir: 'next' | 'previous';
  key: KeyValue[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** An instant as a key carries it: UTC, to the microsecond PostgreSQL keeps (see `instantKey`). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function validValue(type: KeyType, value: unknown): value is KeyValue {
  if (type === 'bigint') return typeof value === 'number' && Number.isSafeInteger(value);
  if (typeof value !== 'string' || value.length > 200) return false;
  if (type === 'timestamptz') {
    // One PostgreSQL would refuse to cast (February 30th, hour 24, year 0) is a bad cursor too.
    const at = Date.parse(value);
    return (
      INSTANT.test(value) &&
      !value.startsWith('0000') &&
      !Number.isNaN(at) &&
      new Date(at).toISOString().slice(0, 23) === value.slice(0, 23)
    );
  }
  if (type !== 'date') return true;
  // A date PostgreSQL would refuse to cast (2026-13-45) is a bad cursor, not a 500.
  const at = Date.parse(`${value}T00:00:00Z`);
  return DATE.test(value) && !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === value;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.dir === 'next' ? 'n' : 'p', ...cursor.key])).toString(
    'base64url',
  );
}

/**
 * SQL of a timestamptz column as a `timestamptz` key value: UTC with all six digits of its
 * microseconds, so a cursor compares exactly with the row it was taken from.
 */
export const instantKey = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The refusal of a cursor (or a key given another way) this list did not write. */
export function badCursor(order: KeyOrder, path = 'after'): Refusal {
  return new Refusal('invalid_request', {
    issues: [{ path, message: `${path} is the cursor of a next or previous link of ${order.path}` }],
  });
}

/** A cursor of `order`'s list, null without one, or a 400. */
export function decodeCursor(order: KeyOrder, after: string | undefined): Cursor | null {
  if (after === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw badCursor(order);
  }
  if (!Array.isArray(parsed) || parsed.length !== order.columns.length + 1) throw badCursor(order);
  const [dir, ...key] = parsed as unknown[];
  if (dir !== 'n' && dir !== 'p') throw badCursor(order);
  if (!order.columns.every((column, i) => validValue(column.type, key[i]))) throw badCursor(order);
  return { dir: dir === 'n' ? 'next' : 'previous', key: key as KeyValue[] };
}

/** A cursor that resumes after a key given in plain form (an older `before=` link), checked like one. */
export function cursorAfter(order: KeyOrder, key: KeyValue[], param: string): Cursor {
  if (
    key.length !== order.columns.length ||
    !order.columns.every((column, i) => validValue(column.type, key[i]))
  )
    throw badCursor(order, param);
  return { dir: 'next', key };
}

/**
 * The SQL of one page: a condition on the key (`true` on the first page), the order to read in
 * and the cursor's values as parameters from `$first`. Going back reads in the reverse order;
 * `pageOf` puts the rows back.
 */
export function keyClause(order: KeyOrder, cursor: Cursor | null, first: number) {
  const forward = cursor?.dir !== 'previous';
  const descending = (order.order === 'desc') === forward;
  const columns = order.columns.map((c) => c.sql).join(', ');
  const orderBy = order.columns.map((c) => `${c.sql} ${descending ? 'desc' : 'asc'}`).join(', ');
  if (!cursor) return { where: 'true', orderBy, params: [] as unknown[] };
  const values = order.columns.map((c, i) => `$${first + i}::${c.type}`).join(', ');
  return {
    where: `(${columns}) ${descending ? '<' : '>'} (${values})`,
    orderBy,
    params: cursor.key as unknown[],
  };
}

export interface Page<T> {
  rows: T[];
  next: Cursor | null;
  previous: Cursor | null;
}

/** The page in `rows` (read with `keyClause`, `limit + 1` of them) and where its neighbours start. */
export function pageOf<T>(
  rows: T[],
  limit: number,
  cursor: Cursor | null,
  keyOf: (row: T) => KeyValue[],
): Page<T> {
  const more = rows.length > limit;
  const backwards = cursor?.dir === 'previous';
  const page = backwards ? rows.slice(0, limit).reverse() : rows.slice(0, limit);
  const first = page[0];
  const last = page.at(-1);
  if (backwards) {
    return {
      rows: page,
      next: last !== undefined ? { dir: 'next', key: keyOf(last) } : null,
      previous: more && first !== undefined ? { dir: 'previous', key: keyOf(first) } : null,
    };
  }
  return {
    rows: page,
    next: more && last !== undefined ? { dir: 'next', key: keyOf(last) } : null,
    previous: cursor && first !== undefined ? { dir: 'previous', key: keyOf(first) } : null,
  };
}

/** The link to a neighbour page: the list's path, its filters, the page size and the cursor. */
export function pageLink(
  path: string,
  cursor: Cursor | null,
  query: Record<string, string | number | null | undefined>,
): string | null {
  if (!cursor) return null;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value != null) params.set(name, String(value));
  params.set('after', encodeCursor(cursor));
  return `${path}?${params}`;
}

/**
 * The paging fields of a list's answer (shared/paging.ts's `listPageLinks`): the page size it used
 * and the links to the neighbour pages, which carry `query` (the list's filters and page size).
 */
export function pageFields(
  order: KeyOrder,
  page: Page<unknown>,
  limit: number,
  query: Record<string, string | number | null | undefined>,
) {
  return {
    limit,
    next: pageLink(order.path, page.next, query),
    previous: pageLink(order.path, page.previous, query),
  };
}

function compareKeys(a: KeyValue[], b: KeyValue[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!; // i < a.length
    const y = b[i];
    if (x !== y) return y !== undefined && x < y ? -1 : 1;
  }
  return 0;
}

/**
 * One page of a list a job keeps or a request derives whole from kept figures (cohorts by month:
 * one row a month), by the same cursor and links as a table's: `items` in the list's order.
 */
export function pageList<T>(
  items: readonly T[],
  order: KeyOrder,
  limit: number,
  cursor: Cursor | null,
  keyOf: (item: T) => KeyValue[],
): Page<T> {
  const sign = order.order === 'asc' ? 1 : -1;
  const inOrder = (item: T) => (cursor ? sign * compareKeys(keyOf(item), cursor.key) : 1);
  const rows =
    cursor?.dir === 'previous'
      ? items.filter((item) => inOrder(item) < 0).reverse()
      : items.filter((item) => inOrder(item) > 0);
  return pageOf(rows.slice(0, limit + 1), limit, cursor, keyOf);
}
