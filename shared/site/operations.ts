/**
 * The site operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { operations } from '../registry/operation.ts';

const { page } = operations('site');

/** The site: home, information and legal pages. */
export const SITE_OPERATIONS = [
  page('/', 'Home: what civitas is, the Record now, and where to begin'),
  page('/about', 'About civitas', { alias: true, aliasOf: '/' }),
  page('/experience', 'The first-visit experience', { alias: true, aliasOf: '/begin' }),
  page('/milestones', 'Milestones of civitas', { alias: true, aliasOf: '/chronicle' }),
  page('/studio', 'Studio: embeddable cards, badges and feeds, with their codes'),
  page(
    '/lexicon',
    'Lexicon: the words civitas uses (Sovereign, Imprint, Record, receipt, naturalization...)',
  ),
  page('/contact', 'Contact: how to reach the stewards'),
  page('/privacy', 'Privacy notice: what is kept, for how long, and your rights'),
  page('/terms', 'Terms of use'),
  page('/legal', 'Legal notices', { alias: true, aliasOf: '/terms' }),
  page('/ip', 'Intellectual property: licences of code, content and marks'),
  page('/legal/proprietary', 'Proprietary notices', { alias: true, aliasOf: '/ip' }),
];
