/**
 * An element a test expects to be there. With `noUncheckedIndexedAccess` a list's index or a
 * record's key gives `T | undefined`; in a test a missing element is a failure, so these throw,
 * naming what was missing, instead of letting `undefined` travel on to a confusing later failure.
 * A negative index counts from the end, as `Array.prototype.at` does.
 */
export function at<T>(list: ArrayLike<T>, index: number): T {
  const i = index < 0 ? list.length + index : index;
  if (i < 0 || i >= list.length) {
    throw new Error(`expected an element at ${index} (the list has ${list.length})`);
  }
  return list[i] as T;
}

/** The first element: `const row = firstOf(await db.query(...))` for a query that must find one. */
export function firstOf<T>(list: ArrayLike<T>): T {
  return at(list, 0);
}

/** The value under `key`, which must be there. */
export function entry<T>(record: Readonly<Record<string, T>>, key: string): T {
  if (!Object.hasOwn(record, key)) throw new Error(`expected an entry under "${key}"`);
  return record[key] as T;
}

/**
 * For a destructured element that must be there: `const [row = missing()] = await db.query(...)`
 * throws when the query found nothing, where `row.x` would throw a TypeError further on.
 */
export function missing(): never {
  throw new Error('expected an element, found none');
}
