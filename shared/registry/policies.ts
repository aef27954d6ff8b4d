/**
 * Every operation's route policy (cache class, page class, origin rule, raw body), by registry key,
 * read from the entries' method blocks with the defaults of shared/registry/operation.ts filled in.
 * The router applies it (api/router.ts), and the site mount its page class (api/site/page-cache.ts);
 * nothing else declares a route's policy.
 */
import { policyOf, type Operation, type RoutePolicy } from './operation.ts';
import { OPERATIONS } from './operations.ts';

const BY_KEY = new Map<string, RoutePolicy>(
  OPERATIONS.flatMap((entry) =>
    entry.methods.map((method) => {
      const policy = policyOf(entry, method);
      if (method !== 'POST' && (policy.origin || policy.rawBody))
        throw new Error(`policies: ${method} ${entry.path} sets an origin rule or rawBody on a safe method`);
      if ((entry as Operation)[method]?.policy?.page && method !== 'GET')
        throw new Error(`policies: ${method} ${entry.path} declares a page class: pages are read with GET`);
      return [`${method} ${entry.path}`, policy] as const;
    }),
  ),
);

/** The policy of a registry key (defaults filled in), or undefined for a key the registry lacks. */
export function policyFor(key: string): RoutePolicy | undefined {
  return BY_KEY.get(key);
}
