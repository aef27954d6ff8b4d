/**
 * The calibration operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { operations } from '../registry/operation.ts';
import {
  prophecyInput,
  prophecyResult,
  calibrationSchema,
  pactDoorBody,
  pactResult,
  answerResult,
  answerInput,
  stewardAnswerResult,
  stakeInput,
  stakeResult,
} from './contract.ts';
import { prophecyPageSchema, almanacSchema } from './contract/pages.ts';

const { api, asset, feed, mutation, page } = operations('calibration');

/** Calibration: graded predictions about the service itself, pacts and what comes due. */
export const CALIBRATION_OPERATIONS = [
  mutation(
    '/sovereign/prophecy',
    "Make a prophecy: a probability that one of the service's own metrics crosses a value by a date",
    { scope: 'sovereign:write', POST: { body: prophecyInput, form: true, response: prophecyResult } },
  ),
  page('/prophecy', 'Prophecies open and resolved', {
    GET: { response: prophecyPageSchema, policy: { cache: 'revalidate' } },
  }),
  api(
    '/api/calibration',
    'Calibration of resolved prophecies: Brier and log scores, reliability diagram data',
    { GET: { response: calibrationSchema } },
  ),
  page(
    '/calibration',
    'Calibration: how well graded predictions about civitas itself turned out (not outside accuracy)',
    {
      // The page's JSON twin answers the same projection as GET /api/calibration.
      GET: { response: calibrationSchema, policy: { cache: 'revalidate' } },
    },
  ),
  page('/almanac', 'The almanac: the season ahead, prophecies and pacts by due date', {
    GET: { response: almanacSchema, policy: { cache: 'revalidate' } },
  }),
  feed('/almanac.ics', 'The almanac as an iCalendar feed'),
  feed('/almanac.xml', 'The almanac as an Atom feed'),
  feed('/streaks.xml', 'Atom feed of streaks: consecutive kept pacts and correct prophecies'),
  mutation('/sovereign/pact', 'Make a pact: a public commitment with a due date', {
    scope: 'sovereign:write',
    refuses: { POST: ['conflict', 'not_found'] },
    POST: {
      body: pactDoorBody,
      form: true,
      response: z.union([pactResult, answerResult]),
    },
  }),
  mutation('/sovereign/pact/stake', 'Put a stake on a pact', {
    scope: 'sovereign:write',
    refuses: { POST: ['conflict', 'not_found'] },
    POST: { body: stakeInput, form: true, response: stakeResult },
  }),
  mutation(
    '/steward/pacts',
    "Answer a pact past its due date on its author's behalf (kept or broken), settling its stakes",
    {
      operator: true,
      scope: 'steward:write',
      refuses: { POST: ['conflict', 'not_found'] },
      POST: {
        body: answerInput,
        form: true,
        response: stewardAnswerResult,
        policy: { origin: 'form' },
      },
    },
  ),
  asset('/calibration/card.svg', 'Calibration card: Brier score and reliability', {
    GET: { policy: { cache: 'public-1m' } },
  }),
  asset('/prophecy/card.svg', 'Card of prophecies open and resolved', {
    GET: { policy: { cache: 'public-1m' } },
  }),
  asset('/almanac/card.svg', 'Almanac card: what comes due this season', {
    GET: { policy: { cache: 'public-1m' } },
  }),
  asset('/almanac/claim/{id}/card.svg', 'Card of one almanac claim (prophecy or pact)', {
    GET: { policy: { cache: 'public-1m' } },
  }),
  asset('/almanac/claim/{id}/answered.svg', 'Card of one almanac claim once answered, with its outcome', {
    GET: { policy: { cache: 'public-1m' } },
  }),
];
