/**
 * What the identity doors accept: their bodies and queries.
 */
import { z } from 'zod';

export { initiateBody, processBody, returnBody } from '../../shared/identity/contract/doors.ts';
export const tagQuery = z.object({ tag: z.string().max(16).optional() });
