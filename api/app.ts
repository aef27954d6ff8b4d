import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import type pino from 'pino';
import { loadConfig, type CivitasConfig } from './config.ts';
import { errorBody } from '../shared/errors.ts';
import type { AppContext, Clock } from './context.ts';
import { databaseClock } from './db/clock.ts';
import { openDatabase, type Database } from './db/database.ts';
import { IMPLEMENTED_ROUTES, MCP_TOOLS, wireRegistries } from './families.ts';
import { KEY_REFRESH_MS, loadServiceKeys, refreshSigningKeys } from './keys.ts';
import denials from './plugins/denials.ts';
import { recordDenial } from './ledger/denials.ts';
import errors from './plugins/errors.ts';
import jsonBody from './plugins/json-body.ts';
import negotiation from './plugins/negotiation.ts';
import httpCache from './plugins/http-cache.ts';
import compression from './plugins/compression.ts';
import serializeOnce from './plugins/serialize-once.ts';
import { recordRevision } from './record/revision.ts';
import flash from './plugins/flash.ts';
import rateLimit from './plugins/rate-limit.ts';
import requestLog, { lazyRequestLogger, requestId } from './plugins/request-log.ts';
import { errorsAtOnce, logDestination } from './plugins/log-destination.ts';
import sameOrigin from './plugins/same-origin.ts';
import mcpGuard from './mcp/guard.ts';
import sessions from './plugins/session.ts';
import vitals, { flushVitals } from './plugins/vitals.ts';
import feedView from './plugins/feed-view.ts';
import securityHeaders, { DATA_ANSWER_HEADERS } from './plugins/security-headers.ts';
import { registerRoutes, type SiteInfo } from './router.ts';
import { livenessServer } from './health/liveness.ts';
import { redactUrlTokens } from './identity/feed-token.ts';
import { treasuryConfig } from './treasury/config.ts';
import type { SiteMount } from './site/mount.ts';
import drain from './plugins/drain.ts';
import metrics from './plugins/metrics.ts';
import type { Tracer } from '@opentelemetry/api';

declare module 'fastify' {
  interface FastifyInstance {
    civitas: AppContext;
  }
}

export interface BuildOptions {
  config?: Partial<CivitasConfig>;
  /** An open database; absent → opened from config (and closed with the app). */
  db?: Database;
  clock?: Clock;
  logger?: boolean;
  /** Where log lines go when `logger` is on; default stdout through an asynchronous destination. */
  logStream?: pino.DestinationStream;
  /** Mount the built Astro site (pages and assets). Default true when dist/ exists. */
  site?: boolean;
  /** OpenTelemetry traces are on (api/tracing.ts): one span per request through this tracer. */
  tracer?: Tracer;
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BODY_LIMIT = 64 * 1024;
const MAX_PARAM_LENGTH = 200;

/** Builds the whole service: plugins in a fixed order, then every registry route. */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const config: CivitasConfig = { ...loadConfig(), ...options.config };
  const destination = options.logger && !options.logStream ? logDestination() : undefined;
  const app = Fastify({
    // Liveness probes are answered by the HTTP server before Fastify (api/health/liveness.ts).
    serverFactory: livenessServer(DATA_ANSWER_HEADERS),
    // Asynchronous destination, and no per-request info lines: the request-log plugin writes the
    // ones an operator acts on (server errors, slow requests).
    logger: options.logger
      ? {
          level: config.logLevel,
          redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-civitas-continuity"]'],
          // A feed token rides in the URL (calendar apps send no cookie): logged URLs mask it.
          serializers: {
            req: (request: FastifyRequest) => ({
              method: request.method,
              url: redactUrlTokens(request.url),
              host: request.host,
              remoteAddress: request.ip,
            }),
          },
          stream: options.logStream ?? destination,
          hooks: { logMethod: errorsAtOnce(destination) },
        }
      : false,
    logController: new LogController({ disableRequestLogging: true }),
    // Each request's child logger is made only if the request writes a line (most never do).
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: BODY_LIMIT,
    // X-Request-Id accepted when sane, else made here; echoed and logged (api/plugins/request-log.ts).
    requestIdHeader: false,
    genReqId: requestId,
    // CIVITAS_TRUST_PROXY: client address, protocol and host from the proxy's X-Forwarded-* headers.
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // The router's own refusals (bad percent-encoding, over-long segments) in the one error shape.
    frameworkErrors: (error, _request, rawReply) => {
      const reply = rawReply as unknown as FastifyReply;
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        void reply.code(414).send(errorBody('uri_too_long'));
        return;
      }
      void reply.code(400).send(
        errorBody('invalid_request', {
          issues: [{ path: '(url)', message: 'The URL is not valid percent-encoding.' }],
        }),
      );
    },
  });

  const ownsDb = !options.db;
  const db =
    options.db ??
    (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, pool: config.dbPool }));
  // The times that order the Record, the receipts and the log days come from the database's clock,
  // so processes on hosts whose clocks disagree still stamp in the order the database commits.
  const ownClock = options.clock ? undefined : await databaseClock(db);
  if (ownClock) app.addHook('onClose', async () => ownClock.stop());
  const clock = options.clock ?? ownClock!;
  const keys = await loadServiceKeys(db, config.secret, clock.now());
  // Another process may rotate the signing key (npm run keys:rotate): re-read it so this one signs
  // with the new key within KEY_REFRESH_MS, without a restart (verification re-reads at once).
  const keyRefresh = setInterval(() => {
    refreshSigningKeys(db, keys, clock.now()).catch((error: Error) =>
      app.log.warn({ err: { type: error?.name, message: error?.message } }, 'signing key refresh failed'),
    );
  }, KEY_REFRESH_MS).unref();
  app.addHook('onClose', async () => clearInterval(keyRefresh));
  // On close (after the last request answered): the figures of the interval not yet flushed are
  // written, so a graceful shutdown loses no vitals or failures; then a database we opened is closed.
  app.addHook('onClose', async () => {
    await flushVitals(app.civitas).catch((error: Error) =>
      app.log.error({ err: { type: error?.name, message: error?.message } }, 'vitals flush on close failed'),
    );
    if (ownsDb) await db.close();
  });
  app.decorate('civitas', { config, db, clock, keys } satisfies AppContext);

  await app.register(serializeOnce);
  await app.register(errors);
  // Tests hold every JSON answer to its declared schema (api/plugins/answer-check.ts, docs/testing.md).
  if (process.env.CIVITAS_ANSWER_CHECK === 'strict')
    await app.register((await import('./plugins/answer-check.ts')).default);
  await app.register(requestLog, { sample: config.accessLogSample });
  await app.register(drain);
  // Request metrics only for an operator who scrapes them; OpenTelemetry loaded only when asked for.
  if (config.metrics) await app.register(metrics);
  if (options.tracer)
    await app.register((await import('./plugins/tracing.ts')).default, { tracer: options.tracer });
  await app.register(vitals);
  // @fastify/cookie writes Set-Cookie in its own onSend hook; it must run before the security
  // headers' onSend, which makes every cookie-setting response `private, no-store`
  // (set_cookie_replay; the census's live probe fails if this order is lost).
  await app.register(cookie);
  // A browser navigating to a feed gets it as a page, before the headers that depend on its type.
  await app.register(feedView);
  await app.register(securityHeaders);
  // The route's cache class first; negotiation only fills a Cache-Control still missing on a hybrid.
  await app.register(httpCache);
  await app.register(negotiation);
  // br/gzip by Accept-Encoding, after the ETag and 304 are settled on the unencoded bytes.
  await app.register(compression);
  await app.register(formbody, { bodyLimit: BODY_LIMIT });
  await app.register(jsonBody);
  await app.register(sameOrigin, { origin: config.origin });
  await app.register(mcpGuard);
  await app.register(fp(internalRequests, { name: 'civitas-internal-requests' }));
  await app.register(sessions);
  await app.register(flash);
  await app.register(rateLimit, {
    readsPerMin: config.rateReadsPerMin,
    writesPerMin: config.rateWritesPerMin,
    redisUrl: config.redisUrl,
  });
  await app.register(denials, { record: recordDenial });

  wireRegistries();
  app.decorate('implementations', IMPLEMENTED_ROUTES);
  app.decorate('tools', MCP_TOOLS);
  const site = options.site === false ? undefined : await mountBuiltSite(app);
  app.decorate('site', site);
  await registerRoutes(app, { implementations: IMPLEMENTED_ROUTES, site, siteInfo: await siteInfo(site) });
  return app;
}

/**
 * Pages read the API in process through inject. Those requests carry a per-process token so
 * they do not spend the (shared, loopback) address's rate budget: the visitor's own page request
 * already did.
 */
async function internalRequests(app: FastifyInstance) {
  const token = randomBytes(16).toString('hex');
  app.decorate('internalToken', token);
  // The split deploy's site server reads with the secret both processes share (CIVITAS_SITE_SECRET).
  const site = app.civitas.config.siteSecret;
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const said = request.headers['x-civitas-internal'];
    if (said === token || (site !== undefined && typeof said === 'string' && sameSecret(said, site)))
      request.actorKey = 'internal';
    done();
  });
}
function sameSecret(said: string, secret: string): boolean {
  const a = Buffer.from(said);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
declare module 'fastify' {
  interface FastifyInstance {
    internalToken: string;
  }
}

async function mountBuiltSite(app: FastifyInstance): Promise<SiteMount | undefined> {
  if (!existsSync(join(REPO_ROOT, 'dist', 'server', 'entry.mjs'))) {
    app.log.warn('The site is not built (run `npm run build`); serving the API only.');
    return undefined;
  }
  const { mountSite } = await import('./site/mount.ts');
  const { injectLocals } = await import('./site/client.ts');
  const base = injectLocals(app, { 'x-civitas-internal': app.internalToken });
  return mountSite(app, {
    assetRoutes: false,
    gatherRenders: app.civitas.db.embedded,
    recordRevision: () => recordRevision(app.civitas),
    locals: async (request) => ({ ...base(request), ...(await pageContext(app, request)) }),
  });
}

/**
 * What every page may show without asking the API: which providers are switched on (a door whose
 * provider is off renders disabled, with the reason) and who is signed in (the header's indicator).
 */
async function pageContext(app: FastifyInstance, request: FastifyRequest) {
  const { config, db } = app.civitas;
  const providers = {
    mail: Boolean(config.smtpUrl),
    payments: Boolean(treasuryConfig(config).stripeSecretKey),
    idp: Boolean(config.idp),
  };
  const origin = config.origin;
  const me = request.sovereign;
  if (!me) return { providers, origin };
  const [row] = await db.kysely
    .selectFrom('sovereigns')
    .select('callsign')
    .where('id', '=', me.sovereignId)
    .execute()
    .catch(() => []);
  return {
    providers,
    origin,
    viewer: {
      tag: me.tag,
      callsign: row?.callsign ?? null,
      steward: me.scopes.includes('steward:write' as never),
    },
  };
}

async function siteInfo(site: SiteMount | undefined): Promise<SiteInfo> {
  if (!site) return { pages: new Set(), hasFile: () => false };
  const { listAstroPages } = await import('./site/page-index.ts');
  const clientDir = join(REPO_ROOT, 'dist', 'client');
  return { pages: new Set(listAstroPages()), hasFile: (path) => existsSync(join(clientDir, path)) };
}
