import type { Scope } from '../../shared/registry/types.ts';

export interface ScopeFacts {
  tag: string;
  id: string;
  uniquenessVerified: boolean;
}

/**
 * Scopes follow from who the sovereign is, never from what the request claims:
 * every signed-in sovereign reads and writes their own things, reconciles identities and manages
 * their own billing; stewards are named by configuration; governance needs a human-uniqueness
 * receipt from the external authority (or configuration, in development).
 */
export function scopesFor(facts: ScopeFacts, config: { stewards: string[]; governanceByConfig?: string[] }): Scope[] {
  const scopes: Scope[] = ['sovereign:read', 'sovereign:write', 'identity:reconcile', 'billing:manage'];
  const named = (list: string[] | undefined) => (list ?? []).some((entry) => entry === facts.tag || entry === facts.id);
  if (facts.uniquenessVerified || named(config.governanceByConfig)) scopes.push('governance:write');
  if (named(config.stewards)) scopes.push('steward:write');
  return scopes;
}
