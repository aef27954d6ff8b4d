import type { PublicImprint } from './imprint.ts';

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1) of retained public imprints. */
export function imprintJsonFeed(imprints: PublicImprint[], options: { origin: string; path: string }) {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: 'civitas — the Record',
    home_page_url: `${options.origin}/imprint`,
    feed_url: `${options.origin}${options.path}`,
    description: 'The newest imprints of the public Record. Only the newest 500 keep their body; held spam never appears; unattested imprints are marked.',
    language: 'en',
    items: imprints
      .filter((imprint) => imprint.retained)
      .map((imprint) => ({
        id: `${options.origin}/receipt/${imprint.receipt_id}`,
        url: `${options.origin}/receipt/${imprint.receipt_id}`,
        title: `${imprint.kind} #${imprint.sequence} by ${imprint.author.kind === 'agent' ? imprint.author.name : `sovereign ${imprint.author.name}`}`,
        content_text: imprint.body ?? '',
        date_published: imprint.recorded_at,
        authors: [{ name: `${imprint.author.kind}:${imprint.author.name}` }],
        tags: [imprint.kind, ...(imprint.unattested ? ['unattested'] : [])],
        _civitas: { sequence: imprint.sequence, kind: imprint.kind, unattested: imprint.unattested, reply_to: imprint.reply_to, receipt_id: imprint.receipt_id },
      })),
  };
}
