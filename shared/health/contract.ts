/**
 * Health's operations: liveness, readiness and versions (shared/contract.ts). Liveness checks no
 * dependency; a readiness probe that finds the database away answers 503 (/health with the same
 * fields, /_health in the error shape); the schemas describe the 200 answer.
 */
import { z } from 'zod';

export const ok = z.literal(true);

export const databaseCheckSchema = z.object({
  ok: z.boolean(),
  kind: z.enum(['embedded', 'postgresql']),
  latency_ms: z
    .number()
    .nullable()
    .describe('round trip of the schema check, measured; null when it failed or the schema is not current'),
});

/** GET /health and MCP civitas_status. */
export const readinessSchema = z.object({
  ok: z.boolean(),
  status: z.enum(['ready', 'degraded']),
  version: z.string(),
  uptime_s: z.number().int().min(0),
  database: databaseCheckSchema,
  reasons: z
    .array(z.string())
    .optional()
    .describe('why the status is degraded: a dependency away (database, redis) and what it does instead'),
});

export const versionsSchema = z.object({
  ok,
  app: z.string(),
  api: z.literal('1'),
  schemas: z.array(z.string()).describe('the civitas.*.v1 payload schema names'),
});
