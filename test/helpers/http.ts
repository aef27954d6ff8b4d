/**
 * The one set of request helpers over `app.inject`: a test file takes them once,
 * `const { get, post, form, page } = requests(() => t.app);` (a getter, since the app is built in
 * `beforeAll`), instead of wrapping `app.inject` itself. Who asks is a `TestSovereign`, a cookie
 * string, or, for the few tests that name them, the request headers themselves; signed-in POSTs get
 * their `Origin` from `asBrowser` (test/helpers/app.ts), as from the service's own pages.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestSovereign } from './identity.ts';

/** Who asks: a signed-in sovereign, a `cookie` header value, or the headers as given. */
export type As = TestSovereign | string | Record<string, string> | undefined;

export const JSON_ACCEPT = 'application/json';
export const HTML_ACCEPT = 'text/html,application/xhtml+xml';
const FORM = 'application/x-www-form-urlencoded';

const isSovereign = (as: object): as is TestSovereign => 'receiptId' in as && 'cookie' in as;

/** The headers `as` stands for. */
export function headersAs(as: As): Record<string, string> {
  if (!as) return {};
  if (typeof as === 'string') return { cookie: as };
  if (isSovereign(as)) return { cookie: as.cookie };
  return as;
}

export interface Requests {
  /** GET with exactly the headers given (none by default): what a client naming nothing gets. */
  raw(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** GET asking for JSON. */
  get(url: string, as?: As, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** GET asking for the page (HTML). */
  page(url: string, as?: As, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** POST a JSON body, asking for JSON. */
  post(
    url: string,
    payload: unknown,
    as?: As,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** POST a form (fields, or an encoded body); the router knows a form post by its content type. */
  form(
    url: string,
    fields: Record<string, string> | string,
    as?: As,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

/** Request helpers on the app `app()` returns at call time. */
export function requests(app: () => FastifyInstance): Requests {
  return {
    raw: (url, headers = {}) => app().inject({ method: 'GET', url, headers }),
    get: (url, as, headers) =>
      app().inject({ method: 'GET', url, headers: { accept: JSON_ACCEPT, ...headersAs(as), ...headers } }),
    page: (url, as, headers) =>
      app().inject({ method: 'GET', url, headers: { accept: HTML_ACCEPT, ...headersAs(as), ...headers } }),
    post: (url, payload, as, headers) =>
      app().inject({
        method: 'POST',
        url,
        payload: payload as object,
        headers: { accept: JSON_ACCEPT, ...headersAs(as), ...headers },
      }),
    form: (url, fields, as, headers) =>
      app().inject({
        method: 'POST',
        url,
        payload: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
        headers: { 'content-type': FORM, ...headersAs(as), ...headers },
      }),
  };
}
