/**
 * Who may keep a page: the page's cache class, declared in its registry entry (`policy.page`, else
 * its `cache`: shared/registry/operation.ts) and applied here, to every page the site mount sends,
 * prerendered or rendered, on the one-origin server and the split deploy's site server alike. No
 * page or component sets a Cache-Control of its own (test/structure/route-policy.test.ts), and the
 * router leaves a page's header to the mount (api/plugins/http-cache.ts only fills a missing one).
 *
 * What makes a page answer personal, and so `private, no-store` under a public or `{ anonymous }`
 * class (shared/http-cache.ts cacheControlFor):
 * - a rendered page: the request carries a session, a cookie (the layout reads the session and the
 *   theme) or a credential header, or names one of the class's `personalQuery` parameters;
 * - a prerendered page: the theme cookie rewrote it (applyTheme); it is the same file for everyone else.
 * The shared form of a page varies on Cookie.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CACHE_CONTROL,
  cacheControlFor,
  personalQueryIn,
  type CachePolicy,
} from '../../shared/http-cache.ts';
import { policyFor } from '../../shared/registry/policies.ts';
import { personalRequest } from '../plugins/http-cache.ts';
import { withVary } from '../plugins/negotiation.ts';
import { normalisePath } from './files.ts';
import { templateToRegExp } from './page-index.ts';

/** The class of a page no registry entry names (the internal `/error` and `/feed-view`): for its one visitor. */
const UNDECLARED = 'private';

export interface PageCache {
  /** The registry template of the page a concrete path shows (`/ledger/ab12` → `/ledger/{id}`). */
  templateOf(path: string): string | undefined;
  /** The page class of the page at `path` for a request of `method` (HEAD reads GET's). */
  policyOf(method: string, path: string): CachePolicy;
  /** Sets the Cache-Control (and Vary) of a page rendered for `request`. */
  applyRendered(request: FastifyRequest, reply: FastifyReply): void;
  /** The Cache-Control of a prerendered page at `path`, rewritten by the theme cookie or not. */
  builtCacheControl(path: string, themed: boolean): string;
}

/** The page classes of the site's pages, by their route templates (api/site/page-index.ts). */
export function pageCache(templates: readonly string[]): PageCache {
  // A static path before a template with parameters: `/ledger/missing` is its own page, not `/ledger/{id}`.
  const routes = templates
    .map((template) => ({
      template,
      pattern: templateToRegExp(template),
      params: template.split('{').length - 1,
    }))
    .sort((a, b) => a.params - b.params);

  const templateOf = (path: string) => {
    const clean = normalisePath(path).replace(/(.)\/$/, '$1');
    return routes.find((route) => route.pattern.test(clean))?.template;
  };

  const policyOf = (method: string, path: string): CachePolicy => {
    const template = templateOf(path);
    if (!template) return UNDECLARED;
    return policyFor(`${method === 'HEAD' ? 'GET' : method} ${template}`)?.page ?? UNDECLARED;
  };

  return {
    templateOf,
    policyOf,
    applyRendered(request, reply) {
      const policy = policyOf(request.method, request.url);
      const personal = personalRequest(request) || personalQueryIn(policy, request.url);
      const { value, varyCookie } = cacheControlFor(policy, personal, true);
      reply.header('cache-control', value);
      if (varyCookie) reply.header('vary', withVary(reply.getHeader('vary'), 'Cookie'));
    },
    builtCacheControl(path, themed) {
      return cacheControlFor(policyOf('GET', path), themed, true).value;
    },
  };
}

/** The class of a page sent for its one visitor whatever its entry says (the error page). */
export const PERSONAL_PAGE = CACHE_CONTROL.private;
