import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Refusal } from '../shared/errors.ts';
import { CREDENTIAL_DOORS } from '../shared/security.ts';
import {
  ROUTES,
  registrableMethods,
  routeKey,
  toFastifyPath,
  isStaticPlaceholder,
} from '../shared/registry/index.ts';
import type { RouteShape } from '../shared/registry/types.ts';
import { contractFor } from '../shared/registry/contracts.ts';
import { policyFor } from '../shared/registry/policies.ts';
import type { Contract } from '../shared/contract.ts';
import { parseContract, type RouteHandler, type RouteImpl } from './route.ts';
import { unstorableText } from '../shared/storable-text.ts';
import { renderPage, sendPage } from './pages.ts';
import { wantsJson } from './http.ts';
import type { SiteMount } from './site/mount.ts';
import { withoutQuery } from '../shared/url-path.ts';

export interface RouterOptions {
  implementations: RouteImpl[];
  site?: SiteMount;
  siteInfo: SiteInfo;
}

/** How each registry shape is served; the routes report and /atlas read this. */
export type Realisation = 'implemented' | 'page' | 'static' | 'not_implemented';

declare module 'fastify' {
  interface FastifyInstance {
    realisations: Map<string, Realisation>;
  }
}

const notImplemented = async () => {
  throw new Refusal('not_implemented');
};

/**
 * A GET shape without a Fastify implementation: a built asset file, else a prerendered page,
 * else an Astro SSR page. When the shape's page is built but nothing answers this concrete path
 * (an unknown `/changelog/{tag}`: its pages are prerendered per release), that is a 404; only a
 * shape with no page at all is an honest 501.
 */
function siteHandler(site: SiteMount | undefined, pageBuilt: boolean) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (site?.sendAsset(reply, withoutQuery(request.url))) return reply;
    if (await sendPage(request, reply)) return reply;
    if (pageBuilt)
      throw new Refusal(
        'not_found',
        { path: withoutQuery(request.url) },
        'No page lives at this path. See /atlas for the map of every route.',
      );
    throw new Refusal('not_implemented');
  };
}

/**
 * A page with a JSON twin (registry kind `hybrid`, or an implementation naming its `page`): JSON to
 * a caller whose `Accept` prefers it, the page to everyone else; asking marks the request, so both
 * variants carry `Vary: Accept` (api/plugins/negotiation.ts).
 */
function pageOrJson(impl: RouteImpl, shape: RouteShape, method: string): RouteHandler {
  const page = impl.page ?? (shape.kind === 'hybrid' && method === 'GET' ? true : undefined);
  if (!page) return impl.handler;
  const render = page === true ? renderPage : page;
  return (request, reply) => (wantsJson(request) ? impl.handler(request, reply) : render(request, reply));
}

/** A route's shared prelude as a Fastify hook; a reply is never awaited (it is thenable: awaiting it waits for the send). */
function preHandlerOf(prelude: NonNullable<RouteImpl['preHandler']>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const done = prelude(request, reply);
    if (done instanceof Promise) await done;
  };
}

function realisationOf(
  shape: RouteShape,
  method: string,
  impl: RouteImpl | undefined,
  siteInfo: SiteInfo,
): Realisation {
  if (impl) return 'implemented';
  if (method !== 'GET') return 'not_implemented';
  if (siteInfo.pages.has(shape.path)) return 'page';
  if (shape.kind === 'asset' && siteInfo.hasFile(shape.path)) return 'static';
  return 'not_implemented';
}

/** What the built site offers, for deciding how each shape is realised. */
export interface SiteInfo {
  pages: Set<string>;
  hasFile(path: string): boolean;
}

/**
 * Registers every shape of the registry, so the server and /openapi.json cannot disagree.
 * Implementations must name registry keys; an unknown key is a start-up error, not a silent route.
 */
export async function registerRoutes(app: FastifyInstance, options: RouterOptions) {
  const byKey = new Map<string, RouteImpl>();
  for (const impl of options.implementations) {
    if (byKey.has(impl.key)) throw new Error(`Two implementations for ${impl.key}`);
    byKey.set(impl.key, impl);
  }
  const known = new Set<string>();
  app.decorateRequest('input', null as never);
  const realisations = new Map<string, Realisation>();
  app.decorate('realisations', realisations);

  for (const shape of ROUTES) {
    if (isStaticPlaceholder(shape.path)) {
      registerHashedAssets(app, shape.path, options);
      continue;
    }
    for (const method of registrableMethods(shape)) {
      const key = routeKey(method, shape.path);
      known.add(key);
      const impl = byKey.get(key);
      const policy = policyFor(key);
      const realisation = realisationOf(shape, method, impl, options.siteInfo);
      realisations.set(key, realisation);
      app.route({
        method,
        url: toFastifyPath(shape.path),
        config: {
          // request_provenance: the registry's credential doors refuse cross-site requests whatever
          // their entry declares, before anything else of the route runs.
          sameOrigin:
            method === 'POST' && (CREDENTIAL_DOORS as readonly string[]).includes(shape.path)
              ? 'credential'
              : policy?.origin,
          rateClass: shape.rate ?? (method === 'POST' ? 'write' : 'read'),
          // The entry's cache class; a GET nothing implements is a site page or file, which brings its own.
          cacheClass: impl ? policy?.cache : undefined,
          scope: shape.scope,
          // A browser navigating to a feed reads it as a page (api/plugins/feed-view.ts).
          feed: shape.kind === 'feed',
        },
        handler: impl
          ? pageOrJson({ ...impl, handler: withContract(impl.handler, contractFor(key)) }, shape, method)
          : method === 'GET'
            ? siteHandler(options.site, realisation === 'page')
            : notImplemented,
        // The one text rule, on every route whatever reads its inputs (contract, handler or page).
        preValidation: key === 'POST /mcp' ? refuseUnstorableUrl : refuseUnstorableText,
        // Work shared by a page and its JSON twin (a guard, headers) runs before either.
        ...(impl?.preHandler ? { preHandler: preHandlerOf(impl.preHandler) } : {}),
        // Signed callbacks (Stripe) verify the exact bytes: capture them before any parser runs.
        ...(impl && policy?.rawBody ? { preParsing: captureRawBody } : {}),
      });
    }
  }
  for (const key of byKey.keys()) {
    if (!known.has(key))
      throw new Error(`Implementation bound to ${key}, which is not in the route registry`);
  }
}

/**
 * Validates the inputs with the route's contract before its handler runs, so the handler reads
 * `request.input` and never parses. A hybrid's contract is its JSON variant: its page reads the
 * query itself, so the inputs are checked only when JSON is asked for.
 */
/** The JSON handler behind its contract: inputs parsed (or refused) before it runs; a page variant never reaches it. */
function withContract(handler: RouteImpl['handler'], contract: Contract | undefined): RouteImpl['handler'] {
  if (!contract || contract.validate === false) return handler;
  return (request, reply) => {
    request.input = parseContract(contract, request);
    return handler(request, reply);
  };
}

/**
 * Path parameters, query and body hold only text PostgreSQL can store (shared/storable-text.ts):
 * else 400 invalid_request naming each field, before the contract, the handler or a page reads
 * them. Synchronous: it runs on every request.
 */
function refuseUnstorableText(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
  const issues = [
    ...unstorableText(request.params),
    ...unstorableText(request.query),
    ...unstorableText(request.body),
  ];
  done(issues.length ? new Refusal('invalid_request', { issues }) : undefined);
}

/** /mcp: the URL here; the JSON-RPC message's tool arguments where the tool is called (api/mcp/endpoint.ts). */
function refuseUnstorableUrl(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
  const issues = [...unstorableText(request.params), ...unstorableText(request.query)];
  done(issues.length ? new Refusal('invalid_request', { issues }) : undefined);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body exactly as received; set only on routes whose entry's policy declares `rawBody: true`. */
    rawBody?: Buffer;
  }
}

/** preParsing hook: reads the payload (within the body limit), keeps it, and hands the parser a fresh stream. */
async function captureRawBody(request: FastifyRequest, _reply: FastifyReply, payload: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > request.routeOptions.bodyLimit) throw new Refusal('payload_too_large');
    chunks.push(buffer);
  }
  request.rawBody = Buffer.concat(chunks);
  return Readable.from([request.rawBody]);
}

/** The hashed stylesheet and font: one shape each in the registry, concrete file names from the build. */
function registerHashedAssets(app: FastifyInstance, template: string, options: RouterOptions) {
  const site = options.site;
  const files = !site ? [] : template.startsWith('/theme') ? [site.assets.theme] : site.assets.fonts;
  const realised = files.filter(Boolean);
  app.realisations.set(routeKey('GET', template), realised.length ? 'static' : 'not_implemented');
  for (const file of realised) {
    app.get(file, { config: { rateClass: 'none' } }, async (_request, reply) => {
      if (!site!.sendAsset(reply, file)) throw new Refusal('not_found');
      return reply;
    });
  }
}
