/**
 * request_provenance: credential-minting POST doors (`/return`, `/initiate`, `/reconcile`,
 * `POST /theme`, `POST /signout`), and every unsafe request a session cookie rides on, act only on
 * requests that come from the service's own origin.
 */
import type { ExportRole } from '../keys.ts';

export interface RequestProvenance {
  /** The `Origin` request header, if any. */
  origin?: string | null;
  /** The `Sec-Fetch-Site` request header, if any. */
  secFetchSite?: string | null;
  /** The `Host` request header; used only when no service origin is configured. */
  host?: string | null;
  /** The configured public origin, e.g. `https://civitas.example`. */
  serviceOrigin?: string | null;
}

const SERIALIZED_ORIGIN = /^https?:\/\/[^/?#\s\\@]+$/i;

/** Normalises a serialized origin (`scheme://host[:port]`) or returns null if it is not one. */
function normalizeOrigin(value: string): string | null {
  if (!SERIALIZED_ORIGIN.test(value)) return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** Hosts that name this machine: in development `localhost` and `127.0.0.1` are the same service. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a claimed origin is the service's own. Exact equality, except on a loopback service
 * origin over http (development), where `localhost`, `127.0.0.1` and `[::1]` on the same port are
 * one service: the server prints one and the browser may have opened the other.
 */
export function sameServiceOrigin(claimed: string, service: string): boolean {
  if (claimed === service) return true;
  let a: URL, b: URL;
  try {
    a = new URL(claimed);
    b = new URL(service);
  } catch {
    return false;
  }
  return (
    b.protocol === 'http:' &&
    a.protocol === 'http:' &&
    LOOPBACK_HOSTS.has(b.hostname) &&
    LOOPBACK_HOSTS.has(a.hostname) &&
    a.port === b.port
  );
}

/**
 * Same-origin when the Origin header equals the service origin (or, unconfigured, names the Host),
 * or — with no Origin at all — when the browser says `Sec-Fetch-Site: same-origin`. Everything else
 * is refused, including `Origin: null`, contradictory headers and a request carrying no evidence.
 */
export function isSameOriginRequest(request: RequestProvenance): boolean {
  const site = typeof request.secFetchSite === 'string' ? request.secFetchSite.trim().toLowerCase() : null;
  if (site !== null && site !== 'same-origin') return false;
  const origin = typeof request.origin === 'string' ? request.origin.trim() : null;
  if (origin === null || origin === '') return site === 'same-origin';
  const claimed = normalizeOrigin(origin);
  if (claimed === null) return false;
  if (typeof request.serviceOrigin === 'string' && request.serviceOrigin !== '') {
    const service = normalizeOrigin(request.serviceOrigin.trim());
    return service !== null && sameServiceOrigin(claimed, service);
  }
  if (typeof request.host === 'string' && request.host !== '') {
    return new URL(claimed).host === request.host.trim().toLowerCase();
  }
  return false;
}

export const BOUNDARY_EXPORT_ROLES = {
  isSameOriginRequest: 'censused',
  sameServiceOrigin: 'component',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
