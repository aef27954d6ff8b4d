/**
 * The site operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { operations } from '../registry/operation.ts';

const { page } = operations('site');

/** The site: home, information and legal pages. */
export const SITE_OPERATIONS = [
  page('/', 'Home: what civitas is, the Record now, and where to begin', {
    GET: { policy: { cache: { anonymous: 'public-page' } } },
  }),
  page('/about', 'About civitas', {
    alias: true,
    aliasOf: '/',
    GET: { policy: { cache: { anonymous: 'public-page' } } },
  }),
  page('/experience', 'The first-visit experience', {
    alias: true,
    aliasOf: '/begin',
    GET: { policy: { cache: 'no-store' } },
  }),
  page('/milestones', 'Milestones of civitas', {
    alias: true,
    aliasOf: '/chronicle',
    GET: { policy: { cache: 'no-store' } },
  }),
  page('/studio', 'Studio: embeddable cards, badges and feeds, with their codes', {
    GET: { policy: { cache: 'no-store' } },
  }),
  page(
    '/lexicon',
    'Lexicon: the words civitas uses (Sovereign, Imprint, Record, receipt, naturalization...)',
    { GET: { policy: { cache: { anonymous: 'public-5m' } } } },
  ),
  page('/contact', 'Contact: how to reach the stewards', {
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
  page('/privacy', 'Privacy notice: what is kept, for how long, and your rights', {
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
  page('/terms', 'Terms of use', { GET: { policy: { cache: { anonymous: 'public-5m' } } } }),
  page('/legal', 'Legal notices', {
    alias: true,
    aliasOf: '/terms',
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
  page('/ip', 'Intellectual property: licences of code, content and marks', {
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
  page('/legal/proprietary', 'Proprietary notices', {
    alias: true,
    aliasOf: '/ip',
    GET: { policy: { cache: { anonymous: 'public-5m' } } },
  }),
];
