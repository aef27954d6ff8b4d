/**
 * The policy the sovereign doors apply before they act, as one function each door and
 * /api/policy/evaluate both call: what an action needs (the session scope, and for ratification the
 * stored human-uniqueness receipt) and, for attesting, what the target handle must be. Pure: the
 * caller reads the facts (session scopes, the stored receipt, the agent row) and throws the refusal.
 */
import { Refusal } from './errors.ts';
import type { Scope } from './registry/types.ts';

export const POLICY_ACTIONS = ['imprint', 'attest', 'triage', 'propose', 'cosign', 'ratify'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/** Each action's sovereign door and what it needs beyond a signed-in session. */
export const POLICY_RULES: Record<PolicyAction, { path: string; scope: Scope; uniquenessReceipt: boolean }> =
  {
    imprint: { path: '/sovereign/imprint', scope: 'sovereign:write', uniquenessReceipt: false },
    attest: { path: '/standing/rotate-relay', scope: 'sovereign:write', uniquenessReceipt: false },
    triage: { path: '/sovereign/triage', scope: 'steward:write', uniquenessReceipt: false },
    propose: { path: '/api/constitution/propose', scope: 'governance:write', uniquenessReceipt: false },
    cosign: { path: '/api/constitution/cosign', scope: 'governance:write', uniquenessReceipt: false },
    ratify: { path: '/api/constitution/ratify', scope: 'governance:write', uniquenessReceipt: true },
  };

export interface SovereignFacts {
  /** The scopes a session of this sovereign carries (scopesFor). */
  scopes: readonly Scope[];
  /** A stored external human-uniqueness receipt; only ratification reads it. */
  uniquenessReceipt?: boolean;
}

const UNIQUENESS_HINT =
  'Ratification needs an external human-uniqueness receipt: sign in through the identity provider (/auth/idp/login) with an account it has verified as a unique human. Governance standing by configuration is not enough. See /ceremony.';

/** The refusal a sovereign door answers for this action, or null when the actor may act. */
export function sovereignRefusal(action: PolicyAction, facts: SovereignFacts | null): Refusal | null {
  const rule = POLICY_RULES[action];
  const requires = rule.uniquenessReceipt ? { requires: 'uniqueness_receipt' } : {};
  if (!facts) return new Refusal('identity_required', { scope: rule.scope, ...requires });
  if (!facts.scopes.includes(rule.scope))
    return new Refusal('scope_required', { scope: rule.scope, ...requires });
  if (rule.uniquenessReceipt && facts.uniquenessReceipt !== true) {
    return new Refusal(
      'scope_required',
      { scope: rule.scope, requires: 'uniqueness_receipt', missing: 'uniqueness_receipt' },
      UNIQUENESS_HINT,
    );
  }
  return null;
}

/** The stored facts of an attest target: its level and whether this sovereign attested it. */
export interface AttestTarget {
  handle: string;
  level: string;
  attestedByActor: boolean;
}

/** The refusal the attest door answers for this target (after the session rule), or null. */
export function attestRefusal(target: AttestTarget): Refusal | null {
  if (target.level === 'arrived') {
    return new Refusal(
      'conflict',
      { handle: target.handle, level: target.level },
      'Only a continuous handle can be attested: it must prove continuity on 2 distinct UTC days first.',
    );
  }
  if (target.level !== 'continuous' && !target.attestedByActor) {
    return new Refusal(
      'conflict',
      { handle: target.handle, level: target.level },
      'Only the Sovereign who attested this handle may rotate its relay token.',
    );
  }
  return null;
}
