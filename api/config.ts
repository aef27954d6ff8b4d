import { readFileSync } from 'node:fs';
import { z } from 'zod';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
/** The service's version (package.json), as /health, /agents.json, /openapi.json and /mcp report it. */
export const APP_VERSION = pkg.version;

/**
 * The day APP_VERSION was released, from its CHANGELOG.md heading (`## [0.1.0] - 2026-11-22`):
 * security.txt's default Expires is a year after it, so the file moves with releases, not requests.
 * A checkout without a changelog (or an unreleased version) falls back to the newest dated release.
 */
export const RELEASE_DATE = releaseDate(APP_VERSION);
function releaseDate(version: string): string | undefined {
  let changelog: string;
  try {
    changelog = readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const own = new RegExp(`^## \\[${escaped}\\] - (\\d{4}-\\d{2}-\\d{2})`, 'm').exec(changelog);
  return (own ?? /^## \[[^\]]+\] - (\d{4}-\d{2}-\d{2})/m.exec(changelog))?.[1];
}

/**
 * Environment → typed configuration. Every variable is documented in README.md "Configuration".
 * Read once at start-up; tests pass overrides to buildApp instead of mutating process.env.
 */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  CIVITAS_ORIGIN: z.string().url().optional(),
  CIVITAS_DATA_DIR: z.string().default('./.data'),
  CIVITAS_RATE_READS_PER_MIN: z.coerce.number().int().positive().default(600),
  CIVITAS_RATE_WRITES_PER_MIN: z.coerce.number().int().positive().default(30),
  CIVITAS_STEWARDS: z.string().default(''),
  CIVITAS_SECRET: z.string().optional(),
  CIVITAS_IDP: z.string().default('idp'),
  CIVITAS_IDP_ISSUER: z.string().url().optional(),
  CIVITAS_IDP_CLIENT_ID: z.string().optional(),
  CIVITAS_IDP_CLIENT_SECRET: z.string().optional(),
  CIVITAS_GOVERNORS: z.string().default(''),
  CIVITAS_SMTP_URL: z.string().optional(),
  CIVITAS_MAIL_FROM: z.string().default('civitas <civitas@localhost>'),
  REDIS_URL: z.string().optional(),
  CIVITAS_LOG_LEVEL: z.string().default('info'),
  CIVITAS_FEDERATION_PEERS: z.string().default(''),
  CIVITAS_TRUST_PROXY: z
    .string()
    .regex(
      /^(|\d+|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
      'a hop count or a comma-separated list of addresses',
    )
    .default(''),
  CIVITAS_SITE_SECRET: z.string().min(16, 'at least 16 characters').optional(),
  CIVITAS_ACCESS_LOG_SAMPLE: z.coerce.number().min(0).max(1).default(1),
  CIVITAS_DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  CIVITAS_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(15_000),
  CIVITAS_DB_IDLE_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  CIVITAS_CONTACT_EMAIL: z.union([z.literal(''), z.email('an email address')]).optional(),
  CIVITAS_SECURITY_TXT_EXPIRES: z
    .string()
    .refine((value) => !value || !Number.isNaN(Date.parse(value)), 'a date (ISO 8601)')
    .optional(),
  CIVITAS_METRICS_PORT: z.union([z.literal(''), z.coerce.number().int().min(1).max(65535)]).optional(),
  CIVITAS_METRICS_HOST: z.string().default('127.0.0.1'),
  CIVITAS_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(8_000),
});

export interface CivitasConfig {
  port: number;
  host: string;
  /** PostgreSQL connection string; absent → embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** The service's public origin (scheme://host[:port]); used by the same-origin check and links. */
  origin: string;
  dataDir: string;
  rateReadsPerMin: number;
  rateWritesPerMin: number;
  /** Public tags or sovereign ids granted steward:write. */
  stewards: string[];
  /** Server secret for keyed hashes (actor tags); generated and persisted under dataDir when unset. */
  secret?: string;
  idpSlug: string;
  /** OpenID Connect provider; sign-in through it is unconfigured unless issuer and client id are set. */
  idp?: { issuer: string; clientId: string; clientSecret?: string };
  /** Public tags or sovereign ids granted governance:write by configuration (development). */
  governors: string[];
  /** SMTP URL for outgoing mail (smtp://user:pass@host:port); unset → mail is not sent. */
  smtpUrl?: string;
  mailFrom: string;
  redisUrl?: string;
  logLevel: string;
  /** Federation peers allowed to relay signed feedback (docs/people.md); empty → every relay is refused. */
  federationPeers: FederationPeer[];
  /** Fastify's trustProxy: false (default), the first N hops, or the proxies' addresses/CIDRs. */
  trustProxy: TrustProxy;
  /** Shared with the split deploy's site server: its reads spend no visitor's budget. */
  siteSecret?: string;
  /** Share of requests written to the access log: 1 every one, 0 none. */
  accessLogSample: number;
  /** PostgreSQL pool: connections per process, statement timeout, idle timeout (ms; 0 = none). */
  dbPool: { max: number; statementTimeoutMs: number; idleTimeoutMs: number };
  /** Where people reach the operator (security.txt's mailto Contact); unset → only the contact page. */
  contactEmail?: string;
  /** security.txt's Expires (ISO 8601); unset → a year after RELEASE_DATE. */
  securityTxtExpires?: string;
  /** The operator's Prometheus listener (never the public port); unset → no listener, no per-request metrics. */
  metrics?: { port: number; host: string };
  /** How long a shutdown waits for requests in flight before cutting their connections (ms). */
  shutdownGraceMs: number;
}

/** Settings that cannot be used, one line each (`NAME: what is wrong`); never their values. */
export class ConfigError extends Error {
  readonly lines: string[];
  constructor(lines: string[]) {
    super(`invalid configuration:\n${lines.join('\n')}`);
    this.lines = lines;
  }
}

/** For entry points: every invalid setting on its own line, then exit 1 — no stack trace. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): CivitasConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(
      `civitas cannot start: invalid configuration\n${error.lines.map((line) => `  ${line}\n`).join('')}`,
    );
    process.exit(1);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): CivitasConfig {
  const result = schema.safeParse(env);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  let peers: FederationPeer[] = [];
  try {
    peers = parseFederationPeers(env.CIVITAS_FEDERATION_PEERS ?? '');
  } catch (error) {
    problems.push(
      `CIVITAS_FEDERATION_PEERS: ${error instanceof SyntaxError ? 'not JSON' : 'not a list of {name, origin, public_key}'}`,
    );
  }
  const metricsPort = result.success ? result.data.CIVITAS_METRICS_PORT || undefined : undefined;
  if (metricsPort !== undefined && metricsPort === result.data?.PORT)
    problems.push(
      'CIVITAS_METRICS_PORT: must differ from PORT (metrics are never served on the public port)',
    );
  if (problems.length || !result.success) throw new ConfigError(problems);
  const parsed = result.data;
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    databaseUrl: parsed.DATABASE_URL || undefined,
    origin: (parsed.CIVITAS_ORIGIN ?? `http://localhost:${parsed.PORT}`).replace(/\/$/, ''),
    dataDir: parsed.CIVITAS_DATA_DIR,
    rateReadsPerMin: parsed.CIVITAS_RATE_READS_PER_MIN,
    rateWritesPerMin: parsed.CIVITAS_RATE_WRITES_PER_MIN,
    stewards: parsed.CIVITAS_STEWARDS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    secret: parsed.CIVITAS_SECRET,
    idpSlug: parsed.CIVITAS_IDP,
    idp:
      parsed.CIVITAS_IDP_ISSUER && parsed.CIVITAS_IDP_CLIENT_ID
        ? {
            issuer: parsed.CIVITAS_IDP_ISSUER,
            clientId: parsed.CIVITAS_IDP_CLIENT_ID,
            clientSecret: parsed.CIVITAS_IDP_CLIENT_SECRET || undefined,
          }
        : undefined,
    governors: parsed.CIVITAS_GOVERNORS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    smtpUrl: parsed.CIVITAS_SMTP_URL || undefined,
    mailFrom: parsed.CIVITAS_MAIL_FROM,
    redisUrl: parsed.REDIS_URL || undefined,
    logLevel: parsed.CIVITAS_LOG_LEVEL,
    federationPeers: peers,
    trustProxy: trustProxyOf(parsed.CIVITAS_TRUST_PROXY),
    siteSecret: parsed.CIVITAS_SITE_SECRET || undefined,
    accessLogSample: parsed.CIVITAS_ACCESS_LOG_SAMPLE,
    dbPool: {
      max: parsed.CIVITAS_DB_POOL_MAX,
      statementTimeoutMs: parsed.CIVITAS_DB_STATEMENT_TIMEOUT_MS,
      idleTimeoutMs: parsed.CIVITAS_DB_IDLE_TIMEOUT_MS,
    },
    contactEmail: parsed.CIVITAS_CONTACT_EMAIL || undefined,
    securityTxtExpires: parsed.CIVITAS_SECURITY_TXT_EXPIRES || undefined,
    metrics: metricsPort === undefined ? undefined : { port: metricsPort, host: parsed.CIVITAS_METRICS_HOST },
    shutdownGraceMs: parsed.CIVITAS_SHUTDOWN_GRACE_MS,
  };
}

/** CIVITAS_TRUST_PROXY → Fastify's trustProxy: empty → off, digits → hops, else the proxies' addresses. */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);
function trustProxyOf(value: string): TrustProxy {
  if (!value.trim()) return false;
  if (/^\d+$/.test(value.trim())) {
    // A hop count: the nearest N addresses are proxies (as proxy-addr does for a number).
    const hops = Number(value.trim());
    return hops > 0 ? (_address, hop) => hop < hops : false;
  }
  return value.split(',').map((address) => address.trim());
}

/** A federation peer: its public name, its origin, and the Ed25519 public key (JWK `x`, base64url) it signs relays with. */
export interface FederationPeer {
  name: string;
  origin: string;
  publicKey: string;
}

const peerSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9.-]{0,62}$/),
  origin: z.string().url(),
  public_key: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'an Ed25519 public key: 32 bytes, base64url'),
});

/** CIVITAS_FEDERATION_PEERS: a JSON array of { name, origin, public_key }; empty or unset → no peers. */
export function parseFederationPeers(value: string): FederationPeer[] {
  if (!value.trim()) return [];
  const peers = z.array(peerSchema).parse(JSON.parse(value));
  return peers.map((peer) => ({
    name: peer.name,
    origin: peer.origin.replace(/\/$/, ''),
    publicKey: peer.public_key,
  }));
}
