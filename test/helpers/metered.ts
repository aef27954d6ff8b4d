/**
 * Where the CPU meter (cpu-meter.ts, `CPU_OUT=<file>`) keeps the names of the databases a test
 * file made, so it can find the PostgreSQL backends that serve them. A global, not a module's
 * state: the meter and db.ts may be loaded apart. Absent when the meter is off.
 */
export const METERED = Symbol.for('civitas.test.metered-databases');

/** Names `database` as this file's, when the meter is on. */
export function meterDatabase(database: string): void {
  (globalThis as { [METERED]?: Set<string> })[METERED]?.add(database);
}
