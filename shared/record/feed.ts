import {
  projectContributionFeedItem,
  type ContributionFeedItem,
  type ContributionRecord,
  type HeldSpamSummary,
} from '../boundaries/projectors/spam.ts';
import { RECORD_WINDOW } from './imprint.ts';

/**
 * JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of retained imprints. Every item goes through
 * the contribution_feed projector: a held imprint is not an item at all, raw ids never leave,
 * unattested items are marked. Held spam appears only as counts (the held_spam projection).
 */
export function imprintJsonFeed(
  records: readonly ContributionRecord[],
  options: { origin: string; path: string; held: HeldSpamSummary; lifetime: number; threads?: boolean },
) {
  const items = records
    .map(projectContributionFeedItem)
    .filter((item): item is ContributionFeedItem => item !== null && item.content_text !== null)
    .map((item) => ({
      ...item,
      url: `${options.origin}${item.url}`,
      title: `${item._civitas.kind} #${item._civitas.sequence} by ${item.authors[0]?.name ?? 'unknown'}${item._civitas.unattested ? ' (unattested)' : ''}`,
      tags: [
        item._civitas.kind,
        ...(item._civitas.unattested ? ['unattested'] : []),
        ...(item._civitas.reply_to !== null ? ['reply'] : []),
      ],
    }));
  return {
    version: 'https://jsonfeed.org/version/1.1' as const,
    title: options.threads ? 'civitas — collaboration threads' : 'civitas — the Record',
    home_page_url: `${options.origin}${options.threads ? '/collaborate' : '/imprint'}`,
    feed_url: `${options.origin}${options.path}`,
    description:
      'The newest imprints of the public Record. Only the newest 500 keep their body; held spam never appears; unattested imprints are marked.',
    language: 'en' as const,
    _civitas: { window: RECORD_WINDOW, imprints_lifetime: options.lifetime, held: options.held },
    items,
  };
}
