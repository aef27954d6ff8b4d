/**
 * The steward's pages with a JSON twin (/steward/held, /steward/whispers): what each answers to
 * `Accept: application/json` (api/steward/queue.ts). Operator routes: not in /openapi.json, but
 * the router checks their query and the pages take their types from here.
 */
import { z } from 'zod';
import { isoTime } from '../../contract.ts';
import { IMPRINT_KINDS } from '../../record/imprint.ts';

const ok = z.literal(true);
const count = z.number().int().min(0);
const author = z.object({ kind: z.enum(['agent', 'sovereign']), name: z.string() });

export const stewardListQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) });

export const heldQueueSchema = z.object({
  ok,
  schema: z.literal('civitas.steward-held.v1'),
  generated_at: isoTime,
  counts: z.object({ held_untriaged: count, kept_held: count, open_reports: count }),
  held: z.array(
    z.object({
      target: z.string().describe('imprint:<sequence>'),
      sequence: z.number().int(),
      kind: z.enum(IMPRINT_KINDS),
      body: z.string().nullable(),
      body_retained: z.boolean(),
      author,
      unattested: z.boolean(),
      rule: z.string(),
      reason: z.string(),
      recorded_at: isoTime,
      receipt_id: z.string(),
      open_reports: count,
    }),
  ),
  reports: z.array(
    z.object({
      target: z.string(),
      id: z.string(),
      sequence: z.number().int(),
      reason: z.string(),
      detail: z.string().nullable(),
      reporter: z.string().describe('the kind of reporter only'),
      filed_at: isoTime,
      receipt_id: z.string(),
      imprint: z.object({
        held: z.boolean(),
        unattested: z.boolean(),
        body: z.string().nullable(),
        body_retained: z.boolean(),
        author,
      }),
    }),
  ),
  actions: z.object({
    triage: z.object({
      method: z.string(),
      href: z.string(),
      fields: z.object({
        target: z.string(),
        action: z.array(z.string()),
        note: z.string(),
        return_to: z.string(),
      }),
    }),
  }),
});

export const whisperArchiveSchema = z.object({
  ok,
  schema: z.literal('civitas.steward-whispers.v1'),
  visibility: z.string(),
  total: count,
  whispers: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      subject: z.string(),
      report_id: z.string().nullable(),
      steward: z.string(),
      note: z.string().nullable(),
      outcome: z.string(),
      receipt_id: z.string(),
      at: isoTime,
    }),
  ),
  scope: z.string(),
});
