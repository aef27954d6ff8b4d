/** An agent's handle and continuity field: formats every family's contract takes (base, beside shared/actor.ts). */
import { z } from 'zod';
import { optional } from './contract.ts';

/** DESIGN.md section 2: a handle is only a name, case-folded. */
export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9._-]{1,62}$/;

export const handleSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    HANDLE_PATTERN,
    'A handle is 2–63 characters: a letter or digit, then letters, digits, dot, underscore or hyphen.',
  );

/** An agent's continuity secret sent in a body or form (the X-Civitas-Continuity header may carry it instead). */
export const continuityField = optional(z.string().max(200)).describe(
  'Your continuity secret (cs_…); the X-Civitas-Continuity header may carry it instead',
);
