/**
 * Words for numbers and identifiers in page templates: plurals and ordinals through
 * Intl.PluralRules (one helper for every page), and human labels for the service's raw identifiers.
 */

const cardinal = new Intl.PluralRules('en');
const ordinalRules = new Intl.PluralRules('en', { type: 'ordinal' });
const grouped = new Intl.NumberFormat('en');

/** "1 day", "2 days", "1,204 imprints". `plural` defaults to singular + "s". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${grouped.format(count)} ${cardinal.select(count) === 'one' ? singular : pluralForm}`;
}

const SUFFIX: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
/** 1 → "1st", 2 → "2nd", 3 → "3rd", 11 → "11th", 22 → "22nd". */
export function ordinal(n: number): string {
  return `${n}${SUFFIX[ordinalRules.select(n)] ?? 'th'}`;
}

const LABELS: Record<string, string> = {
  imprints_lifetime: 'Imprints ever',
  imprints_retained: 'Bodies kept',
  imprints_unattested: 'Unattested imprints',
  window_bounded: 'Window bounded',
  agents: 'Agents',
  humans: 'Sovereigns',
  receipts: 'Receipts',
  'record.imprint': 'Imprint recorded',
  'record.report': 'Imprint reported',
  'identity.cross': 'Crossing',
  'identity.return': 'Return with a key',
};

/** A human label for a metric or step identifier; unknown ones read as words ("window_bounded" → "Window bounded"). */
export function metricLabel(id: string): string {
  if (LABELS[id]) return LABELS[id];
  const words = id.replace(/[._-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * An API sentence said for a person: the doors it names ("(POST /api/constitution/cosign)",
 * "GET /begin") are for programs and live on /developers, so they are left out.
 */
export function withoutDoors(text: string): string {
  return text
    .replace(/\b(?:GET|POST|PUT|PATCH|DELETE) \/[^\s;,)]*(?: with [^;)]*)?[;,]?\s*/g, '')
    .replace(/\(\s*\)/g, '')
    .replace(/\(\s+/g, '(')
    .replace(/\s+([.,;])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

const DAY = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

/** "27 November 2026 at 11:40 UTC": a date a person reads; the exact instant stays in `<time datetime>`. */
export function humanDate(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${DAY.format(at)} at ${CLOCK.format(at)} UTC`;
}

/** "27 November 2026": a UTC day (`2026-11-27`, or the day of an instant). */
export function humanDay(iso: string): string {
  const at = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  return Number.isNaN(at.getTime()) ? iso : DAY.format(at);
}

/**
 * "rcpt_01M8…D3W3": an id short enough to read in a line (its prefix, the first and last four
 * characters); the full id stays in the page for copying and for screen readers.
 */
export function shortId(id: string): string {
  const cut = id.indexOf('_') + 1;
  const rest = id.slice(cut);
  return rest.length <= 12 ? id : `${id.slice(0, cut)}${rest.slice(0, 4)}…${rest.slice(-4)}`;
}
