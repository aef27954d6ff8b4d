import { Feed } from 'feed';
import type { AppContext } from './context.ts';

type FeedOptions = ConstructorParameters<typeof Feed>[0];
type FeedItem = Parameters<Feed['addItem']>[0];

/**
 * An Atom feed of civitas that is valid RFC 4287 by construction:
 * - the service is the feed-level `author` (4.1.1: a feed whose entries carry no author must
 *   have one; entries here speak for the service, never for a person);
 * - no `updated` lies in the future (4.2.15: the last significant change, which cannot be ahead
 *   of now): an entry dated later (a due date, the end of today) is stamped with the start of the
 *   current UTC day, not with now, so the bytes do not move from one request to the next;
 * - the feed's `updated` is its newest entry's, so its ETag changes only when its content does
 *   (an empty feed keeps the `updated` it was given, else the start of the current UTC day).
 */
class CivitasFeed extends Feed {
  readonly #now: Date;
  constructor(options: FeedOptions, now: Date) {
    super({ ...options, updated: notAfter(options.updated ?? startOfDay(now), now) });
    this.#now = now;
  }
  override addItem(item: FeedItem): void {
    super.addItem({ ...item, date: notAfter(item.date, this.#now) });
  }
  override atom1(): string {
    const newest = Math.max(...this.items.map((item) => item.date.getTime()));
    if (this.items.length) this.options.updated = new Date(newest);
    return super.atom1();
  }
}

export function atomFeed(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  options: Omit<FeedOptions, 'author'>,
): Feed {
  return new CivitasFeed(
    { ...options, author: { name: 'civitas', link: ctx.config.origin } },
    ctx.clock.now(),
  );
}

/** A date no later than now: a future one becomes the start of now's UTC day (stable for a day). */
export function notAfter(date: Date, now: Date): Date {
  return date.getTime() > now.getTime() ? startOfDay(now) : date;
}

function startOfDay(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000);
}
