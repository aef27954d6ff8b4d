/**
 * A feed as a person reads it: what a browser that navigates to a feed is shown instead of raw XML,
 * iCalendar or JSON (api/plugins/feed-view.ts renders it with site/pages/feed-view.astro). Read back
 * from the exact bytes a feed reader gets, so the page and the feed cannot say different things.
 */
import { xml2js } from 'xml-js';
import type { FeedKind } from './catalogue.ts';

export interface FeedViewItem {
  title: string;
  /** Where the entry leads, an absolute URL. */
  link?: string;
  /** When: the entry's `updated`/`published`, an event's start, an item's `date_published` (ISO). */
  at?: string;
  summary?: string;
}

export interface FeedView {
  kind: FeedKind;
  title: string;
  subtitle?: string;
  /** The page the feed belongs to, when it names one. */
  home?: string;
  /** The address the browser asked for (absolute), which the subscribe panel offers. */
  address: string;
  /** The catalogue's name and sentence (shared/feeds/catalogue.ts), when the feed is listed there. */
  name?: string;
  carries?: string;
  items: FeedViewItem[];
}

type Parsed = Omit<FeedView, 'address' | 'name' | 'carries'>;

/** Reads a feed's body by its content type; null for a body that is none of the three kinds. */
export function readFeed(contentType: string, body: string): Parsed | null {
  try {
    if (/atom\+xml|\/xml/.test(contentType)) return readAtom(body);
    if (/text\/calendar/.test(contentType)) return readCalendar(body);
    if (/json/.test(contentType)) return readJsonFeed(JSON.parse(body) as JsonFeed);
  } catch {
    return null;
  }
  return null;
}

interface XmlNode {
  _text?: string | string[];
  _cdata?: string | string[];
  _attributes?: Record<string, string>;
  [name: string]: unknown;
}

const text = (node: unknown): string | undefined => {
  if (!node || typeof node !== 'object') return undefined;
  const { _text, _cdata } = node as XmlNode;
  const value = [_cdata ?? [], _text ?? []].flat().join('').trim();
  return value || undefined;
};

function readAtom(xml: string): Parsed | null {
  const doc = xml2js(xml, { compact: true, alwaysArray: ['entry', 'link'] }) as { feed?: XmlNode };
  const feed = doc.feed;
  if (!feed) return null;
  const alternate = (links: unknown) =>
    (links as XmlNode[] | undefined)?.find((l) => (l._attributes?.rel ?? 'alternate') === 'alternate')
      ?._attributes?.href;
  const entries = (feed.entry as XmlNode[] | undefined) ?? [];
  return {
    kind: 'atom',
    title: text(feed.title) ?? 'Feed',
    subtitle: text(feed.subtitle),
    home: alternate(feed.link),
    items: entries.map((entry) => ({
      title: text(entry.title) ?? 'Untitled entry',
      link: alternate(entry.link),
      at: text(entry.updated) ?? text(entry.published),
      summary: text(entry.summary) ?? text(entry.content),
    })),
  };
}

/** iCalendar (RFC 5545): unfolded lines, one item per VEVENT. */
function readCalendar(ics: string): Parsed | null {
  const lines = ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  if (lines[0]?.trim() !== 'BEGIN:VCALENDAR') return null;
  const unescape = (v: string) => v.replace(/\\n/gi, '\n').replace(/\\([,;\\])/g, '$1');
  let title = 'Calendar';
  let event: Record<string, string> | null = null;
  const events: Record<string, string>[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).split(';')[0]!.toUpperCase(); // split() returns ≥ 1 part
    const value = unescape(line.slice(colon + 1));
    if (name === 'BEGIN' && value === 'VEVENT') event = {};
    else if (name === 'END' && value === 'VEVENT' && event) {
      events.push(event);
      event = null;
    } else if (event) event[name] = value;
    else if (name === 'X-WR-CALNAME' || name === 'NAME') title = value;
  }
  return {
    kind: 'calendar',
    title,
    items: events.map((e) => ({
      title: e.SUMMARY ?? 'Event',
      link: e.URL,
      at: icsInstant(e.DTSTART),
      summary: e.DESCRIPTION,
    })),
  };
}

/** `20261127T140500Z` → ISO; a floating or dated value is read as UTC. */
function icsInstant(value: string | undefined): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?/.exec(value ?? '');
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}.000Z`;
}

interface JsonFeed {
  title?: string;
  description?: string;
  home_page_url?: string;
  items?: {
    title?: string;
    url?: string;
    date_published?: string;
    date_modified?: string;
    summary?: string;
    content_text?: string;
  }[];
}

function readJsonFeed(feed: JsonFeed): Parsed | null {
  if (!Array.isArray(feed.items)) return null;
  return {
    kind: 'json',
    title: feed.title ?? 'Feed',
    subtitle: feed.description,
    home: feed.home_page_url,
    items: feed.items.map((item) => ({
      title: item.title ?? 'Untitled item',
      link: item.url,
      at: item.date_published ?? item.date_modified,
      summary: item.summary ?? item.content_text,
    })),
  };
}
