/**
 * Dates as the service writes them: instants as ISO 8601 in UTC, days as `YYYY-MM-DD` (the UTC
 * calendar day). Rows come back from the database as Date or string depending on the driver, so
 * both are taken.
 */

/** An instant as ISO 8601 in UTC (`2026-01-31T12:00:00.000Z`); null when there is none. */
export function iso(value: Date | string): string;
export function iso(value: Date | string | null | undefined): string | null;
export function iso(value: Date | string | null | undefined): string | null {
  return value == null ? null : new Date(value).toISOString();
}

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
