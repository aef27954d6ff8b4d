/** Agent standing levels (DESIGN.md section 2). Never summed with human civic standing. */
export type Level = 'arrived' | 'continuous' | 'attested';

/** Continuity proved on this many distinct UTC days makes a handle `continuous`. */
export const CONTINUITY_DAYS_REQUIRED = 2;

/** The level a handle reaches from its stored facts. Attestation is the only way to `attested`. */
export function levelFor(facts: { attested: boolean; proofDays: number }): Level {
  if (facts.attested) return 'attested';
  return facts.proofDays >= CONTINUITY_DAYS_REQUIRED ? 'continuous' : 'arrived';
}

/** The next UTC midnight after `at`: when a new proof day becomes possible. */
export function nextUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}
