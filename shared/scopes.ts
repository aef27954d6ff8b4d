import type { Scope } from './registry/types.ts';

export interface ScopeFacts {
  tag: string;
  id: string;
  uniquenessVerified: boolean;
  /**
   * True when no other sovereign holds the same 4-hex tag. A configured tag names a steward or
   * governor only while it names exactly one sovereign: a colliding tag names no one (the same
   * rule as /passport), so a collision can never hand out a scope.
   */
  tagUnique?: boolean;
}

/**
 * Scopes follow from who the sovereign is, never from what the request claims:
 * every signed-in sovereign reads and writes their own things, reconciles identities and manages
 * their own billing; stewards are named by configuration (CIVITAS_STEWARDS); governance needs a
 * human-uniqueness receipt from the external authority, or configuration (CIVITAS_GOVERNORS).
 * Configuration entries are raw sovereign ids (always exact) or public tags (only while unique).
 */
export function scopesFor(facts: ScopeFacts, config: { stewards: string[]; governors?: string[] }): Scope[] {
  const scopes: Scope[] = ['sovereign:read', 'sovereign:write', 'identity:reconcile', 'billing:manage'];
  const named = (list: string[] | undefined) =>
    (list ?? []).some(
      (entry) => entry === facts.id || (facts.tagUnique !== false && entry.toLowerCase() === facts.tag),
    );
  if (facts.uniquenessVerified || named(config.governors)) scopes.push('governance:write');
  if (named(config.stewards)) scopes.push('steward:write');
  return scopes;
}
