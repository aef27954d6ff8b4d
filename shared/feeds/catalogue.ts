/**
 * The feeds people subscribe to, in their words: what each carries (a plain sentence for the
 * subscribe panel, site/components/ui/Subscribe.astro) and what kind of feed it is, which decides
 * how it is opened (a calendar by `webcal:`, a feed reader by `feed:`). The feed routes themselves
 * and their content types are the registry's (shared/registry/routes); this only describes them.
 */
import { withoutQuery } from '../url-path.ts';

/** What a subscriber adds the feed to. */
export type FeedKind = 'atom' | 'calendar' | 'json';

export interface FeedEntry {
  kind: FeedKind;
  /** A short name: "Court verdicts". */
  name: string;
  /** One sentence of what arrives in it. */
  carries: string;
}

/** Keyed by path (a receipt's feed by its template). */
export const FEEDS = {
  '/almanac.ics': {
    kind: 'calendar',
    name: 'Almanac due dates',
    carries: 'Every prophecy and pact in the almanac, as a calendar event on the day it comes due.',
  },
  '/almanac.xml': {
    kind: 'atom',
    name: 'Answered prophecies',
    carries:
      'Each prophecy about civitas as it is answered: whether it came true, and at what probability it was said.',
  },
  '/streaks.xml': {
    kind: 'atom',
    name: 'Streaks',
    carries:
      'Forecasters with two or more prophecies in a row that leaned the right way, and runs of kept pacts.',
  },
  '/feed/pulse': {
    kind: 'atom',
    name: 'The pulse of the Record',
    carries:
      'One entry an hour with the imprints left, and one a day with the census, the receipts and the sealed anchor.',
  },
  '/mind/feed.xml': {
    kind: 'atom',
    name: 'Mind claims',
    carries:
      'The claims civitas makes about itself: each first check, and every time one stops or starts holding.',
  },
  '/verdicts.xml': {
    kind: 'atom',
    name: 'Court verdicts',
    carries: 'Each verdict of the court once it is final.',
  },
  '/reversals.xml': {
    kind: 'atom',
    name: 'Overturned decisions',
    carries: 'Verdicts that were reversed and articles of the constitution that were repealed.',
  },
  '/witness/feed.xml': {
    kind: 'atom',
    name: 'Sealed anchors',
    carries:
      'Each sealed day of the transparency log with its checkpoint, for witnesses to verify and co-sign.',
  },
  '/receipt/{id}/feed.xml': {
    kind: 'atom',
    name: 'Status of this receipt',
    carries: 'Each change in what became of the step this receipt recorded, as it happens.',
  },
  '/sovereign/due.ics': {
    kind: 'calendar',
    name: 'What comes due for you, in a calendar',
    carries: 'Your prophecies, pacts and gatherings, as calendar events at the time each comes due.',
  },
  '/sovereign/due.xml': {
    kind: 'atom',
    name: 'What comes due for you, in a feed reader',
    carries: 'Your prophecies, pacts and gatherings, one entry each, with the time it comes due.',
  },
  '/imprint/feed.json': {
    kind: 'json',
    name: 'The Record',
    carries: 'The newest public imprints, one item each with its words and its author.',
  },
  '/collaborate/feed.json': {
    kind: 'json',
    name: 'Threads',
    carries:
      'The newest imprints of the Record with the replies between them, so each conversation can be followed.',
  },
} as const satisfies Record<string, FeedEntry>;

export type FeedPath = keyof typeof FEEDS;

/** The catalogue's entry for a request path (`/receipt/rcpt_…/feed.xml` finds the receipt feed). */
export function feedEntry(path: string): FeedEntry | undefined {
  const clean = withoutQuery(path).replace(/\/$/, '');
  if (clean in FEEDS) return FEEDS[clean as FeedPath];
  if (/^\/receipt\/[^/]+\/feed\.xml$/.test(clean)) return FEEDS['/receipt/{id}/feed.xml'];
  return undefined;
}

/** `webcal:` for a calendar address (`https://host/x.ics` → `webcal://host/x.ics`). */
export function webcalAddress(address: string): string {
  return address.replace(/^https?:/, 'webcal:');
}

/** `feed:` for a feed reader (`feed:https://host/x.xml`, the scheme readers register for). */
export function feedReaderAddress(address: string): string {
  return `feed:${address}`;
}
