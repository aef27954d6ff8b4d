/**
 * Lists that page by key (issue 20, point 6): the query fields and answer fields every list that
 * grows with the population shares. A list answers one bounded page (`limit`, at most `max`) and
 * links to the next and previous pages by a cursor (`after`): the key of the row it resumes from,
 * so a page reads only its own rows and a row arriving while someone pages neither repeats nor
 * hides another (an offset would). The cursor is the service's own: a client follows the links
 * and never builds one. The server half is api/paging.ts.
 */
import { z } from 'zod';
import { blank } from './contract.ts';

/** The cursor of a `next` or `previous` link: base64url, as api/paging.ts writes it. */
export const afterParam = z.preprocess(
  blank,
  z
    .string()
    .max(400)
    .regex(/^[A-Za-z0-9_-]+$/, 'after is the cursor of a next or previous link')
    .optional()
    .describe('the cursor of a `next` or `previous` link of this list (opaque: follow the links)'),
);

/** A page size: `fallback` rows unless asked, never more than `max`. */
export const limitParam = (fallback: number, max: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(max, `limit is at most ${max}`)
    .default(fallback)
    .describe(`rows on one page (1–${max}, ${fallback} unless asked)`);

/** The paging fields of a list's query: `limit` and `after`. */
export const listPageQuery = (fallback: number, max: number) => ({
  limit: limitParam(fallback, max),
  after: afterParam,
});

/** The paging fields of a list's answer, beside the list itself. */
export const listPageLinks = {
  limit: z.number().int().min(1).describe('the page size this answer used'),
  next: z.string().nullable().describe('the next page (older, or further in the order), or null on the last'),
  previous: z.string().nullable().describe('the page before this one, or null on the first'),
};
