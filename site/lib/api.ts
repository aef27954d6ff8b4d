/**
 * How pages read the API. Pages never compute business state; they fetch the same projection the
 * JSON endpoint serves.
 *
 * - One-origin server: `Astro.locals.civitas.inject` (Fastify inject, in process, no socket).
 * - Split deploy: a plain fetch to CIVITAS_API_URL (default http://127.0.0.1:8080).
 * The request's cookie header is forwarded either way, so owner views see the session.
 */

export interface ApiResult<T> {
  status: number;
  body: T;
}

/** The parts of the Astro global apiGet uses (kept structural so it can be called from tests). */
export interface ApiContext {
  request: Request;
  locals: App.Locals;
}

const DEFAULT_API_URL = 'http://127.0.0.1:8080';

export function apiBaseUrl(): string {
  return process.env.CIVITAS_API_URL ?? DEFAULT_API_URL;
}

/**
 * `path` with the page's own query parameters `names` carried over where given (a list's `after`
 * and `limit`, its filters), after any `fixed` ones: how a page passes its cursor on to its JSON
 * twin. The path alone when nothing is carried.
 */
export function passedOn(
  url: URL,
  path: string,
  names: readonly string[],
  fixed: Record<string, string> = {},
): string {
  const params = new URLSearchParams(fixed);
  for (const name of names) {
    const value = url.searchParams.get(name);
    if (value) params.set(name, value);
  }
  return params.size ? `${path}?${params}` : path;
}

/** GET a JSON path from the API. Never throws for HTTP statuses; a network failure answers 503. */
export async function apiGet<T>(Astro: ApiContext, path: string): Promise<ApiResult<T>> {
  if (!path.startsWith('/') || path.startsWith('//'))
    throw new Error(`apiGet needs a local path, got ${path}`);
  const headers: Record<string, string> = { accept: 'application/json' };
  const cookie = Astro.request.headers.get('cookie');
  if (cookie) headers.cookie = cookie;

  const inject = Astro.locals.civitas?.inject;
  if (inject) {
    try {
      const res = await inject({ method: 'GET', url: path, headers });
      return { status: res.status, body: res.body as T };
    } catch {
      return unavailable<T>();
    }
  }

  // Split deploy: the site server is the API's trusted proxy (CIVITAS_TRUST_PROXY there). Its reads
  // name the visitor, and with the shared CIVITAS_SITE_SECRET they spend no budget at all: the
  // visitor's own page request already did.
  if (Astro.locals.forwardedFor) headers['x-forwarded-for'] = Astro.locals.forwardedFor;
  if (process.env.CIVITAS_SITE_SECRET) headers['x-civitas-internal'] = process.env.CIVITAS_SITE_SECRET;
  let res: Response;
  let text: string;
  try {
    res = await fetch(new URL(path, apiBaseUrl()), { headers, signal: AbortSignal.timeout(10_000) });
    text = await res.text();
  } catch {
    return unavailable<T>();
  }
  return { status: res.status, body: parseJson(text) as T };
}

/** The service's own words for "the API did not answer"; the runtime's error text never reaches a page. */
function unavailable<T>(): ApiResult<T> {
  return {
    status: 503,
    body: {
      ok: false,
      reason: 'provider_unavailable',
      hint: 'The API did not answer. Try again shortly.',
    } as T,
  };
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
