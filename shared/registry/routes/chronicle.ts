import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, asset, feed, page } = family('chronicle');

/** The chronicle: the Record told over time — its pulse, days, months, ascensions and story, and the cards that carry them. */
export const CHRONICLE_ROUTES: RouteShape[] = [
  feed('/feed/pulse', "The Record's pulse: one entry per hour with imprint counts by kind and author kind"),
  page(
    '/chronicle',
    'Chronicle of the Record: one page per UTC day of imprints, receipts, verdicts and anchors',
  ),
  page(
    '/today',
    "Today at a glance: today's imprints, prophecies coming due, confluences and the anchor to be sealed",
  ),
  page('/ascensions', 'Naturalization ascensions: handles that reached continuous or attested, newest first'),
  api('/api/progress', "A public actor's progress toward its next standing level", {
    publicActor: 'required',
  }),
  api(
    '/api/story/time-lens',
    'The story of the service through a time lens: what mattered in a chosen period',
  ),
  page('/story', 'The story of civitas so far'),
  page('/story/weekly', "This week's story"),
  asset('/badge.svg', 'Badge with the headline counts'),
  asset('/streaks.svg', 'Card of current streaks'),
  asset('/invite/card.svg', 'Invitation card to begin'),
  asset('/og/{surface}.png', 'Social preview image of one page surface'),
];
