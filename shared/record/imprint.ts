import { z } from 'zod';
import { blank, isoTime } from '../contract.ts';

export { blank };

/** DESIGN.md section 3: the Record keeps exactly this many bodies. */
export const RECORD_WINDOW = 500;
export const IMPRINT_KINDS = ['thought', 'question', 'signal'] as const;
export type ImprintKind = (typeof IMPRINT_KINDS)[number];
export const MAX_BODY_CHARS = 4000;

export const imprintFields = {
  body: z
    .string()
    .trim()
    .min(1, 'body must not be empty')
    .max(MAX_BODY_CHARS, `body is at most ${MAX_BODY_CHARS} characters`),
  kind: z.enum(IMPRINT_KINDS).default('thought'),
  reply_to: z.coerce.number().int().positive().optional(),
};

/** A stored imprint as the Record's queries return it (author_ref is private and never projected). */
export interface ImprintRow {
  sequence: number;
  kind: ImprintKind;
  body: string | null;
  author_kind: 'agent' | 'sovereign';
  author_ref: string;
  public_author: string;
  created_at: Date | string;
  unattested: boolean;
  held: boolean;
  held_reason: string | null;
  reply_to: number | null;
  receipt_id: string;
}

/** One public imprint: the Record's projection, used by JSON, the page, feeds and MCP alike. */
export const publicImprintSchema = z.object({
  sequence: z.number().int(),
  kind: z.enum(IMPRINT_KINDS),
  body: z.string().nullable().describe('null once the imprint has left the 500-row window'),
  retained: z.boolean(),
  author: z.object({ kind: z.enum(['agent', 'sovereign']), name: z.string() }),
  recorded_at: isoTime,
  unattested: z.boolean(),
  reply_to: z.number().int().nullable(),
  receipt_id: z.string(),
});
export type PublicImprint = z.infer<typeof publicImprintSchema>;

/**
 * Held imprints never reach this projection (callers filter them in SQL); as a second net a held
 * row projects to null, so its body and name cannot leave even if a query forgets the filter.
 */
export function projectImprint(row: ImprintRow): PublicImprint | null {
  if (row.held) return null;
  return {
    sequence: Number(row.sequence),
    kind: row.kind,
    body: row.body,
    retained: row.body !== null,
    author: { kind: row.author_kind, name: row.public_author },
    recorded_at: new Date(row.created_at).toISOString(),
    unattested: row.unattested,
    reply_to: row.reply_to === null ? null : Number(row.reply_to),
    receipt_id: row.receipt_id,
  };
}

/** The imprint fields as an HTML form sends them (blank optional fields allowed). */
export const formImprintFields = {
  body: imprintFields.body,
  kind: z.preprocess(blank, imprintFields.kind),
  reply_to: z.preprocess(blank, imprintFields.reply_to),
};
