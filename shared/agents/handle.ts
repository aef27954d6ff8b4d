import { z } from 'zod';

/** DESIGN.md section 2: a handle is only a name, case-folded. */
export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9._-]{1,62}$/;

export const handleSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(HANDLE_PATTERN, 'A handle is 2–63 characters: a letter or digit, then letters, digits, dot, underscore or hyphen.');
