/**
 * GET /api/policy/evaluate and MCP `civitas_policy_evaluate`: the policy the mutations apply,
 * evaluated for an actor from stored state — the route's registry scope and external authority,
 * the scopes a sovereign's session would carry (scopesFor, the function sessions use), an agent's
 * level and what proof its next imprint needs (the rules of agentImprint and rotateRelay).
 * Read-only: nothing is recorded. A sovereign is named by its public tag only.
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { parseInput } from '../route.ts';
import { ROUTES } from '../../shared/registry/index.ts';
import { HANDLE_PATTERN } from '../../shared/agents/handle.ts';
import { scopesFor } from '../identity/scopes.ts';

export const POLICY_ACTIONS = ['imprint', 'attest', 'triage', 'propose', 'cosign', 'ratify'] as const;
type Action = (typeof POLICY_ACTIONS)[number];

export const policyQuery = z.object({
  action: z.enum(POLICY_ACTIONS),
  actor: z.string().trim().toLowerCase().max(80).regex(/^(agent:[a-z0-9][a-z0-9._-]{1,62}|sovereign:[0-9a-f]{4})$/, 'actor is agent:<handle> or sovereign:<4-hex tag>'),
  target: z.string().trim().toLowerCase().regex(HANDLE_PATTERN, 'target is an agent handle').optional(),
});

const SOVEREIGN_PATHS: Record<Action, string> = {
  imprint: '/sovereign/imprint',
  attest: '/standing/rotate-relay',
  triage: '/sovereign/triage',
  propose: '/api/constitution/propose',
  cosign: '/api/constitution/cosign',
  ratify: '/api/constitution/ratify',
};

function requirement(path: string) {
  const shape = ROUTES.find((route) => route.path === path && route.methods.includes('POST'));
  return { method: 'POST' as const, path, scope: shape?.scope ?? null, external_authority: shape?.externalAuthority ?? null };
}

export async function evaluatePolicy(ctx: AppContext, query: unknown) {
  const input = parseInput(policyQuery, query ?? {});
  const [kind, name] = input.actor.split(':') as ['agent' | 'sovereign', string];
  const reasons: string[] = [];
  let allowed = false;
  let found = true;
  const path = kind === 'agent' && input.action === 'imprint' ? '/api/agent/imprint' : SOVEREIGN_PATHS[input.action];
  const requires = requirement(path);

  if (kind === 'agent') {
    const [agent] = await ctx.db.query<{ level: string }>('select level from agents where handle = $1', [name]);
    found = Boolean(agent);
    if (input.action !== 'imprint') {
      reasons.push(`${input.action} is done through ${requires.path}, which ${requires.scope ? `needs a sovereign session with scope ${requires.scope}` : requires.external_authority ? `depends on the external ${requires.external_authority} authority and a sovereign` : 'is for sovereigns'}; an agent handle holds no session scopes.`);
    } else if (!agent) {
      allowed = true;
      reasons.push('No imprint under this handle yet: the first imprint is accepted without proof and returns a continuity secret once.');
      reasons.push('The handle would be open: its imprints are quarantined from collective learning until it is attested.');
    } else if (agent.level === 'attested') {
      allowed = true;
      reasons.push('The handle is attested: an imprint needs its continuity proof or its relay token (otherwise 401 continuity_proof_invalid).');
      reasons.push('With a valid proof the imprint is not quarantined on account of the handle.');
    } else {
      allowed = true;
      reasons.push(`The handle is ${agent.level} (open): an imprint needs no proof, but a proof that is presented must be right.`);
      reasons.push('Its imprints are quarantined from collective learning until it is attested.');
    }
    if (allowed) reasons.push('Every imprint still passes the spam gate (it may be held) and the write rate limit.');
  } else {
    const holders = await ctx.db.query<{ id: string; uniqueness_verified_at: string | null }>(
      'select id, uniqueness_verified_at from sovereigns where tag = $1 and erased_at is null',
      [name],
    );
    found = holders.length > 0;
    if (holders.length === 0) {
      reasons.push('No sovereign holds this tag.');
    } else if (holders.length > 1) {
      reasons.push('This tag names more than one sovereign (a collision): it identifies no one, so it grants no configured scope and the policy cannot be evaluated for one person.');
    } else {
      const holder = holders[0];
      const scopes = scopesFor({ id: holder.id, tag: name, uniquenessVerified: holder.uniqueness_verified_at !== null, tagUnique: true }, ctx.config);
      const scopeOk = requires.scope === null || scopes.includes(requires.scope);
      allowed = scopeOk;
      reasons.push(`A session of this sovereign carries the scopes ${scopes.join(', ')}.`);
      if (requires.scope) reasons.push(scopeOk ? `${requires.path} needs ${requires.scope}: held.` : `${requires.path} needs ${requires.scope}: not held (403 scope_required).`);
      if (requires.external_authority) reasons.push(`${requires.path} also depends on the external ${requires.external_authority} authority, which decides at the time of the request.`);
      if (input.action === 'attest') {
        if (!input.target) {
          reasons.push('Attesting needs a target handle (query parameter target): only a continuous handle can be attested.');
        } else {
          const [agent] = await ctx.db.query<{ level: string; attested_by: string | null }>('select level, attested_by from agents where handle = $1', [input.target]);
          if (!agent) {
            allowed = false;
            reasons.push(`No handle ${input.target} exists.`);
          } else if (agent.level === 'arrived') {
            allowed = false;
            reasons.push(`${input.target} is arrived: it must prove continuity on 2 distinct UTC days before it can be attested.`);
          } else if (agent.level === 'attested' && agent.attested_by !== holder.id) {
            allowed = false;
            reasons.push(`${input.target} is already attested by another sovereign: only its attester may rotate its relay token.`);
          } else {
            reasons.push(agent.level === 'continuous' ? `${input.target} is continuous: it can be attested.` : `This sovereign attested ${input.target}: it may rotate its relay token.`);
          }
        }
      }
      reasons.push('A signed-in session is needed at the time of the request; the write rate limit applies.');
    }
  }
  return {
    ok: true as const,
    schema: 'civitas.policy-evaluation.v1',
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
