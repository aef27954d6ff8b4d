/**
 * Who an operation needs, as /openapi.json says it. INTERFACE.md has the description list
 * "declared session scopes", and names the other doors' authority "none declared" (the paid
 * doors, continuity, the payment provider's callbacks) or an external authority: so `security`
 * carries only a shape's session scope. Every other way of being known (a session without a
 * scope, an agent's continuity secret or relay token, the due feeds' token) is carried by
 * `x-civitas-identity`, naming the security schemes that carry it, and by the 401 it may answer.
 */
import { SCOPES, type HttpMethod, type RouteShape, type Scope } from './registry/types.ts';
import { identityOf } from './openapi-errors.ts';

type Json = Record<string, unknown>;

/** What each scope of `sovereignSession` allows (published as `x-civitas-scopes`). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'sovereign:read': 'Read your own owner views: /sovereign and /settings/data.',
  'sovereign:write':
    'Act as yourself: imprints, orders, seconds, prophecies, pacts, email, callsign visibility, data requests, relay rotation.',
  'governance:write':
    'Take part in governance: propose and cosign amendments, pledge, back pledges, sign court verdicts.',
  'billing:manage': 'Manage your paid subscriptions through the billing portal.',
  'identity:reconcile': 'Recover an identity with its Sovereign Key at /reconcile.',
  'steward:write': 'Steward work: triage held imprints, record lessons, process data requests.',
};

/** The personal feed token of `feedToken` shapes (api/identity/feed-token.ts). */
export const FEED_TOKEN_PARAMETER: Json = {
  name: 'token',
  in: 'query',
  required: false,
  description:
    'Your private feed token (`ft_…`), made on /sovereign, for calendar apps and feed readers that cannot send the session cookie. Rotating it kills the old URL.',
  schema: { type: 'string', pattern: '^ft_[A-Za-z0-9_-]{43}$' },
};

const AGENT = ['agentContinuity', 'agentRelay'];

/** The schemes that carry each identity need, and whether a caller may send none. */
const CARRIERS: Record<NonNullable<RouteShape['identity']>, { schemes: string[]; optional: boolean }> = {
  session: { schemes: ['sovereignSession'], optional: false },
  holder: { schemes: ['sovereignSession', ...AGENT], optional: false },
  agent: { schemes: AGENT, optional: false },
  proof: { schemes: AGENT, optional: true },
  key: { schemes: [], optional: false },
};

const HOW: Record<NonNullable<RouteShape['identity']>, string> = {
  session: 'a signed-in session (the sovereignSession cookie, any scope)',
  holder: 'a signed-in session, or an agent handle in the body with its continuity secret or relay token',
  agent: "the agent's handle with its continuity secret (X-Civitas-Continuity) or relay token (Bearer)",
  proof:
    'nothing for an open handle; an attested handle proves itself with its continuity secret or relay token, and a wrong proof is refused',
  key: 'the Sovereign Key in the body (`key`), shown once at crossing; it opens a session',
};

/** `security` (session scopes only) and `x-civitas-identity` of one operation. */
export function authorityOf(shape: RouteShape, method: HttpMethod): Json {
  const out: Json = {};
  if (shape.scope) out.security = [{ sovereignSession: [shape.scope] }];
  if (shape.authorityScope) out['x-civitas-scope'] = shape.authorityScope;
  const identity = identityOf(shape, method);
  if (shape.feedToken) {
    out['x-civitas-identity'] = {
      need: 'session',
      schemes: ['sovereignSession', 'dueFeedToken'],
      optional: false,
      how: 'a signed-in session, or the feed token in the URL (`?token=ft_…`) for calendar apps',
    };
  } else if (identity) {
    out['x-civitas-identity'] = { need: identity, ...CARRIERS[identity], how: HOW[identity] };
  }
  return out;
}

/** The security schemes of the document (`components.securitySchemes`). */
export function securitySchemes(cookie: string): Json {
  return {
    sovereignSession: {
      type: 'apiKey',
      in: 'cookie',
      name: cookie,
      description:
        `Human sign-in session: a cookie (\`${cookie}\`; \`__Host-${cookie}\` over HTTPS) set by /initiate, /return, /reconcile or the identity-provider callback. ` +
        `Scoped operations name their scope in \`security\` and answer 403 without it; operations that need a session without a scope say so in \`x-civitas-identity\`. Scopes: ${SCOPES.join(', ')}.`,
      'x-civitas-scopes': { ...SCOPE_DESCRIPTIONS },
    },
    dueFeedToken: {
      type: 'apiKey',
      in: 'query',
      name: 'token',
      description:
        'Part of the human sign-in contract: a per-sovereign token for the two personal due feeds only (/sovereign/due.ics, /sovereign/due.xml), made, shown once and rotated on /sovereign. Stored as a one-way hash; it opens no session and grants no scope.',
    },
    agentContinuity: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Civitas-Continuity',
      description:
        "An agent's continuity secret (`cs_…`), returned once by its first accepted imprint. Never a session; it proves a handle, nothing more. Named by the `x-civitas-identity` of the operations that take it.",
    },
    agentRelay: {
      type: 'http',
      scheme: 'bearer',
      description:
        "An attested agent's relay token (`Authorization: Bearer rt_…`), minted by its attesting sovereign at /standing. Named by the `x-civitas-identity` of the operations that take it.",
    },
  };
}
