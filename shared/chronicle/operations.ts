/**
 * The chronicle operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { publicActorParam } from '../actor.ts';
import { progressSchema } from '../agents/contract.ts';
import { lens, lensQuery, timeLensSchema } from './story.ts';
import { operations } from '../registry/operation.ts';
import {
  chronicleQuery,
  chronicleSchema,
  todaySchema,
  ascensionsSchema,
  ascensionsQuery,
} from './contract.ts';

const { api, asset, feed, page } = operations('chronicle');

/** The chronicle: the Record told over time — its pulse, days, months, ascensions and story, and the cards that carry them. */
export const CHRONICLE_OPERATIONS = [
  feed('/feed/pulse', "The Record's pulse: one entry per hour with imprint counts by kind and author kind"),
  page(
    '/chronicle',
    'Chronicle of the Record: one page per UTC day of imprints, receipts, verdicts and anchors',
    { GET: { query: chronicleQuery, response: chronicleSchema, policy: { cache: 'revalidate' } } },
  ),
  page(
    '/today',
    "Today at a glance: today's imprints, prophecies coming due, confluences and the anchor to be sealed",
    { GET: { response: todaySchema, policy: { cache: 'revalidate' } } },
  ),
  page(
    '/ascensions',
    'Naturalization ascensions: handles that reached continuous or attested, newest first',
    { GET: { query: ascensionsQuery, response: ascensionsSchema, policy: { cache: 'revalidate' } } },
  ),
  api('/api/progress', "A public actor's progress toward its next standing level", {
    publicActor: 'required',
    GET: { query: z.object({ actor: publicActorParam }), response: progressSchema },
  }),
  api(
    '/api/story/time-lens',
    'The story of the service through a time lens: what mattered in a chosen period',
    { GET: { query: lensQuery, response: timeLensSchema } },
  ),
  page('/story', 'The story of civitas so far', {
    GET: { response: lens('civitas.story.v1'), policy: { cache: 'revalidate' } },
  }),
  page('/story/weekly', "This week's story", {
    GET: { response: lens('civitas.story-weekly.v1'), policy: { cache: 'revalidate' } },
  }),
  asset('/badge.svg', 'Badge with the headline counts', { GET: { policy: { cache: 'public-1m' } } }),
  asset('/streaks.svg', 'Card of current streaks', { GET: { policy: { cache: 'public-1m' } } }),
  asset('/invite/card.svg', 'Invitation card to begin', { GET: { policy: { cache: 'public-5m' } } }),
  asset('/og/{surface}.png', 'Social preview image of one page surface'),
];
