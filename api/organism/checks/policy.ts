/**
 * GET /api/policy/evaluate and MCP `civitas_policy_evaluate`: the policy the mutations apply,
 * evaluated for an actor from stored state by the very functions the doors call — the scopes a
 * sovereign's session would carry (scopesFor, the function sessions use), its stored uniqueness
 * receipt, sovereignRefusal and attestRefusal (shared/policy.ts), and an agent's level and what
 * proof its next imprint needs (the rules of agentImprint).
 * Read-only: nothing is recorded. A sovereign is named by its public tag only.
 */
import type { AppContext } from '../../context.ts';
import { ROUTES } from '../../../shared/registry/index.ts';
import type { PolicyQuestion } from '../../../shared/organism/contract/explanations.ts';
import { POLICY_RULES, attestRefusal, sovereignRefusal } from '../../../shared/policy.ts';
import { scopesFor } from '../../../shared/scopes.ts';

/** The door's registry shape, with the scope its policy asks for where the registry names an external authority instead. */
function requirement(path: string, policyScope: string | null) {
  const shape = ROUTES.find((route) => route.path === path && route.methods.includes('POST'));
  return {
    method: 'POST' as const,
    path,
    scope: shape?.scope ?? policyScope,
    external_authority: shape?.externalAuthority ?? null,
  };
}

/** `input` is parsed with the contract's policyQuery (by the router, or by MCP from the same fields). */
export async function evaluatePolicy(ctx: AppContext, input: PolicyQuestion) {
  const [kind, name] = input.actor.split(':') as ['agent' | 'sovereign', string];
  const reasons: string[] = [];
  let allowed = false;
  let found: boolean;
  const agentImprint = kind === 'agent' && input.action === 'imprint';
  const requires = agentImprint
    ? requirement('/api/agent/imprint', null)
    : requirement(POLICY_RULES[input.action].path, POLICY_RULES[input.action].scope);

  if (kind === 'agent') {
    const [agent] = await ctx.db.kysely
      .selectFrom('agents')
      .select('level')
      .where('handle', '=', name)
      .execute();
    found = Boolean(agent);
    if (input.action !== 'imprint') {
      reasons.push(
        `${input.action} is done through ${requires.path}, which ${requires.scope ? `needs a sovereign session with scope ${requires.scope}` : requires.external_authority ? `depends on the external ${requires.external_authority} authority and a sovereign` : 'is for sovereigns'}; an agent handle holds no session scopes.`,
      );
    } else if (!agent) {
      allowed = true;
      reasons.push(
        'No imprint under this handle yet: the first imprint is accepted without proof and returns a continuity secret once.',
      );
      reasons.push(
        'The handle would be open: its imprints are quarantined from collective learning until it is attested.',
      );
    } else if (agent.level === 'attested') {
      allowed = true;
      reasons.push(
        'The handle is attested: an imprint needs its continuity proof or its relay token (otherwise 401 continuity_proof_invalid).',
      );
      reasons.push('With a valid proof the imprint is not quarantined on account of the handle.');
    } else {
      allowed = true;
      reasons.push(
        `The handle is ${agent.level} (open): an imprint needs no proof, but a proof that is presented must be right.`,
      );
      reasons.push('Its imprints are quarantined from collective learning until it is attested.');
    }
    if (allowed)
      reasons.push('Every imprint still passes the spam gate (it may be held) and the write rate limit.');
  } else {
    const holders = await ctx.db.kysely
      .selectFrom('sovereigns')
      .select(['id', 'uniqueness_verified_at'])
      .where('tag', '=', name)
      .where('erased_at', 'is', null)
      .execute();
    const [holder, another] = holders;
    found = holder !== undefined;
    if (holder === undefined) {
      reasons.push('No sovereign holds this tag.');
    } else if (another !== undefined) {
      reasons.push(
        'This tag names more than one sovereign (a collision): it identifies no one, so it grants no configured scope and the policy cannot be evaluated for one person.',
      );
    } else {
      const uniquenessReceipt = holder.uniqueness_verified_at !== null;
      const scopes = scopesFor(
        { id: holder.id, tag: name, uniquenessVerified: uniquenessReceipt, tagUnique: true },
        ctx.config,
      );
      const rule = POLICY_RULES[input.action];
      // The door's own rule, called with the facts the door would read.
      const refusal = sovereignRefusal(input.action, { scopes, uniquenessReceipt });
      allowed = refusal === null;
      reasons.push(`A session of this sovereign carries the scopes ${scopes.join(', ')}.`);
      reasons.push(
        scopes.includes(rule.scope)
          ? `${requires.path} needs ${rule.scope}: held.`
          : `${requires.path} needs ${rule.scope}: not held (403 scope_required).`,
      );
      if (rule.uniquenessReceipt) {
        reasons.push(
          uniquenessReceipt
            ? 'It also needs a stored external human-uniqueness receipt: held.'
            : 'It also needs a stored external human-uniqueness receipt: not held (403 scope_required, missing uniqueness_receipt).',
        );
      }
      if (input.action === 'attest' && allowed) {
        if (!input.target) {
          reasons.push(
            'Attesting needs a target handle (query parameter target): only a continuous handle can be attested.',
          );
        } else {
          const [agent] = await ctx.db.kysely
            .selectFrom('agents')
            .select(['level', 'attested_by'])
            .where('handle', '=', input.target)
            .execute();
          const targetRefusal = agent
            ? attestRefusal({
                handle: input.target,
                level: agent.level,
                attestedByActor: agent.attested_by === holder.id,
              })
            : null;
          if (!agent) {
            allowed = false;
            reasons.push(`No handle ${input.target} exists.`);
          } else if (targetRefusal) {
            allowed = false;
            reasons.push(
              `${input.target} is ${agent.level}: ${targetRefusal.customHint ?? targetRefusal.reason}`,
            );
          } else {
            reasons.push(
              agent.level === 'continuous'
                ? `${input.target} is continuous: it can be attested.`
                : `This sovereign attested ${input.target}: it may rotate its relay token.`,
            );
          }
        }
      }
      reasons.push('A signed-in session is needed at the time of the request; the write rate limit applies.');
    }
  }
  return {
    ok: true as const,
    schema: 'civitas.policy-evaluation.v1' as const,
    evaluated_at: ctx.clock.now().toISOString(),
    action: input.action,
    actor: input.actor,
    ...(input.target ? { target: input.target } : {}),
    found,
    allowed,
    reasons,
    requires,
    note: 'An evaluation grants nothing: the mutation checks the same rules again when it is called.',
  };
}
