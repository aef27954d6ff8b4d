/**
 * The change-status registry, owned by the ledger: a receipt proves a step was recorded, and the
 * status of the change that step asked for is reported beside it, resolved by the family that owns
 * the subject. Families register their resolvers by subject prefix (`imprint`, `order`, ...) from
 * the one wiring file, api/families.ts; a subject without a resolver reports `change_status: null`.
 */
import type { Sql } from '../db/database.ts';

/** The status of the change a receipt's step asked for, reported beside the receipt, never implied by it. */
export interface ChangeStatus {
  subject: string;
  status: string;
  detail: string;
  as_of: string;
}

/** Resolves `<prefix>:<ref>` to its current status, or null when the ref names nothing. */
export type ChangeStatusResolver = (
  sql: Sql,
  ref: string,
  subject: string,
  now: Date,
) => Promise<ChangeStatus | null>;

const resolvers = new Map<string, ChangeStatusResolver>();

/** Registers the resolver for subjects `<prefix>:…`; registering the same prefix again replaces it. */
export function registerChangeStatus(prefix: string, resolver: ChangeStatusResolver): void {
  resolvers.set(prefix, resolver);
}

export async function changeStatusOf(
  sql: Sql,
  subject: string | null,
  now: Date,
): Promise<ChangeStatus | null> {
  if (!subject) return null;
  const colon = subject.indexOf(':');
  if (colon <= 0) return null;
  const resolver = resolvers.get(subject.slice(0, colon));
  return resolver ? resolver(sql, subject.slice(colon + 1), subject, now) : null;
}
