/**
 * The operator console's JSON (GET /operator and its alias /dashboard asked with
 * `Accept: application/json`, api/operator/console.ts): raw queue sizes, denial and receipt
 * totals and the live boundary census. An operator route: not in /openapi.json.
 */
import { z } from 'zod';
import { isoTime } from '../contract.ts';

const count = z.number().int().min(0);

export const operatorConsoleSchema = z.object({
  ok: z.literal(true),
  schema: z.literal('civitas.operator.v1'),
  generated_at: isoTime,
  steward: z.object({ tag: z.string() }),
  queues: z.object({
    held_untriaged: count,
    kept_held: count,
    open_reports: count,
    data_requests_pending: z.object({ export: count, erasure: count, total: count }),
  }),
  denials: z.object({ total: count, by_reason: z.array(z.object({ reason: z.string(), count })) }),
  receipts: z.object({ total: count }),
  lessons: z.object({ active: count }),
  census: z.object({
    all_bound: z.boolean(),
    fully_accounted: z.boolean(),
    total_boundaries: count,
    active: count,
    unbound_count: count,
    unbound: z.array(z.string()),
  }),
  links: z.array(z.object({ rel: z.string(), href: z.string(), label: z.string() })),
});
