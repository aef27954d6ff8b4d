/**
 * What the ledger learns about a receipt's subject from the family that owns it, through two
 * registries the ledger owns and the wiring file (api/families.ts) fills, so the ledger imports no
 * family above it (the change status beside a receipt is the third: ./change-status.ts):
 * - subject receipts: verifying by the subject's own id (`GET /verify/court/{id}`, the court's);
 * - subject events: changes of a subject that no receipt records, on its timeline (an imprint's
 *   body leaving the window, the Record's).
 */
import type { Sql } from '../db/database.ts';

/** The receipt that closed a subject, and the subject's public projection shown beside its verification. */
export interface SubjectReceipt {
  receipt_id: string;
  subject: unknown;
}

/** Finds the receipt of subject `id`, or refuses (`not_found`, with a hint) when there is none yet. */
export type SubjectReceiptResolver = (sql: Sql, id: string) => Promise<SubjectReceipt>;

/** The subjects the ledger verifies by their own id; `court` is the court's final verdict. */
export type SubjectKind = 'court';

const resolvers = new Map<SubjectKind, SubjectReceiptResolver>();

/** Registers the resolver for a kind; registering the same kind again replaces it. */
export function registerSubjectReceipt(kind: SubjectKind, resolver: SubjectReceiptResolver): void {
  resolvers.set(kind, resolver);
}

export function subjectReceipt(kind: SubjectKind, sql: Sql, id: string): Promise<SubjectReceipt> {
  const resolver = resolvers.get(kind);
  if (!resolver)
    throw new Error(
      `No ${kind} receipt resolver is registered: api/families.ts wireRegistries() registers it.`,
    );
  return resolver(sql, id);
}

/** One entry of a receipt subject's timeline (`GET /ledger/{id}`). */
export interface TimelineEntry {
  at: string;
  status: string;
  title: string;
  receipt_id: string | null;
}

/** The events of `<prefix>:<ref>` that no receipt records; an unknown ref has none. */
export type SubjectEventsResolver = (sql: Sql, ref: string, subject: string) => Promise<TimelineEntry[]>;

const events = new Map<string, SubjectEventsResolver>();

/** Registers the events of subjects `<prefix>:…`; registering the same prefix again replaces it. */
export function registerSubjectEvents(prefix: string, resolver: SubjectEventsResolver): void {
  events.set(prefix, resolver);
}

/** The registered events of `subject`, none when its prefix has no resolver. */
export async function subjectEvents(sql: Sql, subject: string): Promise<TimelineEntry[]> {
  const colon = subject.indexOf(':');
  const resolver = colon > 0 ? events.get(subject.slice(0, colon)) : undefined;
  return resolver ? resolver(sql, subject.slice(colon + 1), subject) : [];
}
