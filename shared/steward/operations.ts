/**
 * The steward operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { operations } from '../registry/operation.ts';
import { triageFields, returnField, ok, TRIAGE_ACTIONS, lessonFields, lesson, count } from './contract.ts';
import { stewardListQuery, heldQueueSchema, whisperArchiveSchema } from './contract/pages.ts';

const { api, mutation, page } = operations('steward');

/** Stewardship: triage of held imprints, the lessons stewards record, and the steward-only views. */
export const STEWARD_OPERATIONS = [
  mutation(
    '/sovereign/triage',
    'Steward triage of a held imprint: release, keep held, dismiss, or open a court case',
    {
      scope: 'steward:write',
      refuses: { POST: ['conflict', 'not_found'] },
      POST: {
        body: z.object({ ...triageFields, ...returnField }),
        form: true,
        response: z.object({
          ok,
          action: z.enum(TRIAGE_ACTIONS),
          target: z.string(),
          imprint: z.object({
            sequence: z.number().int(),
            held: z.boolean(),
            unattested: z.boolean(),
            body_retained: z.boolean(),
            publicly_visible: z.boolean(),
          }),
          reports_closed: z.array(z.string()),
          note_recorded: z.boolean(),
          outcome: z.string(),
          receipt_id: z.string(),
          receipt: z.string(),
        }),
        policy: { origin: 'form' },
      },
    },
  ),
  mutation('/steward/lesson', 'A steward records, corrects or retires a lesson', {
    scope: 'steward:write',
    POST: {
      body: z.object({ ...lessonFields, ...returnField }),
      form: true,
      response: z.object({ ok, lesson, receipt: z.string() }),
      policy: { origin: 'form' },
    },
  }),
  page('/steward', 'Steward inbox: orders, pacts, held imprints and data requests awaiting a decision', {
    operator: true,
    scope: 'steward:write',
  }),
  page('/steward/held', 'Held imprints with their bodies, for triage', {
    operator: true,
    scope: 'steward:write',
    GET: { query: stewardListQuery, response: heldQueueSchema },
  }),
  page('/steward/whispers', 'The whisper archive: steward-only notes and events', {
    operator: true,
    scope: 'steward:write',
    GET: { query: stewardListQuery, response: whisperArchiveSchema },
  }),
  api('/api/hive/lessons', 'Lessons learned from non-quarantined imprints (collective learning)', {
    GET: {
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }),
      response: z.object({
        ok,
        schema: z.literal('civitas.lessons.v1'),
        total: count,
        lessons: z.array(lesson),
        excluded_from_learning: z.object({
          held: count,
          held_reasons: z.array(z.object({ rule: z.string(), reason: z.string(), count })),
          unattested: count,
        }),
        principle: z.string(),
      }),
      policy: { cache: 'public-1m' },
    },
  }),
];
