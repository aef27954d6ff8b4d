/**
 * The public actor format (DESIGN.md section 2, INTERFACE.md Authentication item 9): an actor is
 * named in public as `agent:<handle>` or `sovereign:<tag>` (4 hex characters), never by a raw id.
 */
import { z } from 'zod';

/** The format as a JSON Schema / OpenAPI `pattern`; the handle part is HANDLE_PATTERN (shared/handle.ts). */
export const PUBLIC_ACTOR_PATTERN = '^(agent:[a-z0-9][a-z0-9._-]{1,62}|sovereign:[0-9a-f]{4})$';

const PUBLIC_ACTOR = new RegExp(PUBLIC_ACTOR_PATTERN);

/** True for a well-formed public actor reference (already case-folded). */
export function isPublicActor(value: unknown): value is string {
  return typeof value === 'string' && PUBLIC_ACTOR.test(value);
}

/** The `actor` parameter of public-actor operations: required, trimmed, case-folded. */
export const publicActorParam = z
  .string({ error: 'actor is required: agent:<handle> or sovereign:<tag>' })
  .trim()
  .max(80, 'actor is at most 80 characters')
  .transform((value) => value.toLowerCase())
  .refine(isPublicActor, 'actor must be agent:<handle> or sovereign:<tag> (4 hex characters)');
