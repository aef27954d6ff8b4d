import { Feed } from 'feed';
import type { AppContext } from './context.ts';

type FeedOptions = ConstructorParameters<typeof Feed>[0];
type FeedItem = Parameters<Feed['addItem']>[0];

/**
 * An Atom feed of civitas that is valid RFC 4287 by construction:
 * - the service is the feed-level `author` (4.1.1: a feed whose entries carry no author must
 *   have one; entries here speak for the service, never for a person);
 * - no `updated` lies in the future (4.2.15: the last significant change, which cannot be ahead
 *   of now): an entry dated later (a due date, the end of today) is stamped with now instead.
 */
class CivitasFeed extends Feed {
  readonly #now: Date;
  constructor(options: FeedOptions, now: Date) {
    super({ ...options, updated: options.updated ? notAfter(options.updated, now) : now });
    this.#now = now;
  }
  override addItem(item: FeedItem): void {
    super.addItem({ ...item, date: notAfter(item.date, this.#now) });
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

export function notAfter(date: Date, now: Date): Date {
  return date.getTime() > now.getTime() ? now : date;
}
