/**
 * What the calibration doors accept: prophecies, pacts, answers and stakes, with their due dates.
 */
import { z } from 'zod';
import { Refusal } from '../../shared/errors.ts';
import { blank } from '../../shared/record/imprint.ts';
import { COMPARATORS, DUE_DAYS_MAX, DUE_DAYS_MIN, METRICS, PROBABILITY_MAX, PROBABILITY_MIN } from '../../shared/calibration/scores.ts';
import { ORDER_TITLE_MAX, ORDER_DETAIL_MAX } from '../../shared/orders/order.ts';
import { PACT_ID, PACT_SIDES, POINTS_MAX } from './pacts.ts';

const DAY_MS = 86_400_000;
const returnField = z.preprocess(blank, z.string().max(2048).optional());
const COMPARATOR_WORDS: Record<string, string> = { '≥': 'gte', '>=': 'gte', '<': 'lt' };

const dueFields = {
  due_in_days: z.preprocess(blank, z.coerce.number().int().min(DUE_DAYS_MIN, `due_in_days is ${DUE_DAYS_MIN}..${DUE_DAYS_MAX}`).max(DUE_DAYS_MAX, `due_in_days is ${DUE_DAYS_MIN}..${DUE_DAYS_MAX}`).optional()),
  due_at: z.preprocess(blank, z.string().trim().max(40).optional()),
};

export const prophecyInput = z.object({
  metric: z.enum(METRICS),
  comparator: z.preprocess((v) => (typeof v === 'string' ? (COMPARATOR_WORDS[v.trim()] ?? v.trim()) : v), z.enum(COMPARATORS)),
  threshold: z.coerce.number().int('threshold is a whole number').min(0).max(1e12),
  probability: z.coerce.number().min(PROBABILITY_MIN, `probability is ${PROBABILITY_MIN}..${PROBABILITY_MAX}`).max(PROBABILITY_MAX, `probability is ${PROBABILITY_MIN}..${PROBABILITY_MAX}`),
  ...dueFields,
  return_to: returnField,
});

export const pactInput = z.object({
  title: z.string().trim().min(1, 'title must not be empty').max(ORDER_TITLE_MAX, `title is at most ${ORDER_TITLE_MAX} characters`),
  detail: z.preprocess(blank, z.string().trim().max(ORDER_DETAIL_MAX, `detail is at most ${ORDER_DETAIL_MAX} characters`).optional()),
  stake: z.coerce.number().int().min(1).max(POINTS_MAX, `stake is 1..${POINTS_MAX} points`),
  ...dueFields,
  return_to: returnField,
});

/** POST /sovereign/pact with `pact` answers it (its author); POST /steward/pacts answers for the author. */
export const answerInput = z.object({
  pact: z.string().trim().regex(PACT_ID, 'pact is a pact id such as pact_01J…'),
  outcome: z.enum(PACT_SIDES, { error: 'outcome must be kept or broken' }),
  return_to: returnField,
});
export const isAnswer = (body: unknown) => typeof body === 'object' && body !== null && 'outcome' in body;

export const stakeInput = z.object({
  pact: z.string().trim().regex(PACT_ID, 'pact is a pact id such as pact_01J…'),
  points: z.coerce.number().int().min(1).max(POINTS_MAX, `points is 1..${POINTS_MAX}`),
  side: z.preprocess(blank, z.enum(PACT_SIDES).default('kept')),
  return_to: returnField,
});

/** The due time from `due_in_days` or `due_at`: one of them, 1..365 days ahead. */
export function dueFrom(input: { due_in_days?: number; due_at?: string }, now: Date): Date {
  const issue = (message: string) => new Refusal('invalid_request', { issues: [{ path: 'due_at', message }] });
  if (input.due_in_days !== undefined && input.due_at !== undefined) throw issue('Send due_in_days or due_at, not both.');
  if (input.due_in_days !== undefined) return new Date(now.getTime() + input.due_in_days * DAY_MS);
  if (input.due_at === undefined) throw issue(`Send due_in_days (${DUE_DAYS_MIN}..${DUE_DAYS_MAX}) or due_at (an ISO date).`);
  const text = /^\d{4}-\d{2}-\d{2}$/.test(input.due_at) ? `${input.due_at}T00:00:00Z` : input.due_at;
  const at = /^\d{4}-\d{2}-\d{2}T/.test(text) ? new Date(text) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) throw issue('due_at is an ISO date such as 2027-03-01 or 2027-03-01T12:00:00Z.');
  const ahead = at.getTime() - now.getTime();
  if (ahead < DUE_DAYS_MIN * DAY_MS || ahead > DUE_DAYS_MAX * DAY_MS) throw issue(`due_at must be ${DUE_DAYS_MIN} to ${DUE_DAYS_MAX} days ahead.`);
  return at;
}
