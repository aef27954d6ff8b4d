import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { ERRORS, Refusal, errorBody, type ErrorBody, type ErrorReason } from '../../shared/errors.ts';
import { sendFormBack, wantsHtml } from '../http.ts';
import { isDatabaseOutage, OUTAGE_RETRY_AFTER_S } from '../db/outage.ts';
import { allowedMethods } from '../../shared/registry/index.ts';
import { withoutQuery } from '../../shared/url-path.ts';

/** Fastify's own error codes, mapped onto the one catalog. */
const FASTIFY_CODES: Record<string, ErrorReason> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_request',
  FST_ERR_VALIDATION: 'invalid_request',
};

/** The catalog's reason for a status no handler named (also the split deploy's site server's). */
export function reasonForStatus(status: number): ErrorReason {
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'rate_limited';
  return status >= 500 ? 'internal_error' : 'invalid_request';
}

/**
 * Hook point: called (synchronously, errors swallowed) for each failure this handler answers —
 * a 5xx other than 501 not_implemented and other than a provider this deployment switched off.
 * `external` marks a provider that failed (provider_unavailable), with the lane the refusal names.
 * Listeners keep lane, kind and time only (failure_projection); api/plugins/vitals.ts registers the
 * one that feeds the `failures` table.
 */
export type FailureListener = (
  request: FastifyRequest,
  status: number,
  failure: { external: boolean; lane?: string },
) => void;
declare module 'fastify' {
  interface FastifyInstance {
    failureListeners: FailureListener[];
  }
}

/**
 * A provider switched off here (no payment key, no mail server, no identity provider) answers 503,
 * but that is the configuration speaking, not a failure: such refusals are marked with
 * providerOff(), never reach the failure listeners, and their requests are not server errors.
 */
const switchedOff = new WeakSet<Refusal>();
const answeredOff = new WeakSet<FastifyRequest>();
export function providerOff(refusal: Refusal): Refusal {
  switchedOff.add(refusal);
  return refusal;
}
/** True when this request was answered by a provider switched off here (see providerOff). */
export function answeredByProviderOff(request: FastifyRequest): boolean {
  return answeredOff.has(request);
}

function noteFailure(request: FastifyRequest, status: number, refusal?: Refusal) {
  if (status < 500 || status === 501) return;
  if (refusal && switchedOff.has(refusal)) {
    answeredOff.add(request);
    return;
  }
  const lane = typeof refusal?.extra.lane === 'string' ? refusal.extra.lane : undefined;
  const failure = { external: refusal?.reason === 'provider_unavailable', ...(lane ? { lane } : {}) };
  for (const listener of request.server.failureListeners) {
    try {
      listener(request, status, failure);
    } catch {
      // a listener never turns a failure answer into another failure
    }
  }
}

/**
 * Every refusal leaves in one shape: { ok:false, reason, hint, ...extra }. Never a stack trace,
 * never a provider's or the runtime's own words (the failure_projection boundary).
 */
async function errors(app: FastifyInstance) {
  app.decorate('failureListeners', [] as FailureListener[]);
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const { status, body } = answerFor(error, request);
    // A body refused for its size may still be arriving: unread, it would stall the next request
    // on this keep-alive connection, and reading it is what the limit refuses. Close it after.
    if (status === 413) reply.header('connection', 'close');
    return answer(request, reply, status, body);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = withoutQuery(request.url);
    // A path the registry has, asked with a method it does not take: 405 naming the ones it takes.
    const allow = allowedMethods(path);
    if (allow) {
      reply.header('allow', allow.join(', '));
      return answer(
        request,
        reply,
        405,
        errorBody(
          'method_not_allowed',
          { allow: allow.join(', ') },
          `${path} takes ${allow.join(', ')}; see /openapi.json.`,
        ),
      );
    }
    return answer(
      request,
      reply,
      404,
      errorBody(
        'not_found',
        { path },
        'No route has that path. The map of every route is /atlas; machines read /openapi.json.',
      ),
    );
  });
}

/** The status and body for any error: a Refusal as thrown, zod and Fastify's own mapped onto the catalog. */
function answerFor(error: FastifyError, request: FastifyRequest): { status: number; body: ErrorBody } {
  if (error instanceof Refusal) {
    noteFailure(request, error.status, error);
    return { status: error.status, body: error.body() };
  }
  if (error instanceof ZodError) {
    const issues = error.issues.map((issue) => ({
      path: issue.path.join('.') || '(body)',
      message: issue.message,
    }));
    return { status: 400, body: errorBody('invalid_request', { issues }) };
  }
  if (isDatabaseOutage(error)) {
    // An outage, not a fault: one line without a stack (the database's own log has the story).
    request.log.warn({ err: { type: error.name, code: error.code } }, 'database unavailable');
    return { status: 503, body: errorBody('unavailable', { retry_after: OUTAGE_RETRY_AFTER_S }) };
  }
  const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
  const status = mapped ? ERRORS[mapped].status : (error.statusCode ?? 500);
  const reason = mapped ?? reasonForStatus(status);
  if (status >= 500) {
    // Logged with its stack and the request id (never sent to the client); request bodies stay out.
    request.log.error(
      { err: { type: error.name, code: error.code, message: error.message, stack: error.stack } },
      'request failed',
    );
    noteFailure(request, 500);
    return { status: 500, body: errorBody('internal_error') };
  }
  const extra =
    reason === 'invalid_request' && error.validation
      ? {
          issues: error.validation.map((v) => ({
            path: String(v.instancePath || v.params?.missingProperty || '(body)'),
            message: v.message ?? 'invalid',
          })),
        }
      : reason === 'invalid_request'
        ? {
            issues: [
              { path: '(body)', message: 'The request body could not be read as the declared content type.' },
            ],
          }
        : {};
  return { status, body: errorBody(reason, extra) };
}

/**
 * One error, three readers: a browser form goes back to its page with the error and what was
 * typed (303 + flash); a browser navigation gets an HTML page in the site's layout; everyone else
 * gets the error shape as JSON.
 */
async function answer(request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody) {
  // A budget refused outside the limiter's own hook (chargeWrite) still names its wait in the header.
  if (typeof body.retry_after === 'number' && !reply.hasHeader('retry-after'))
    reply.header('retry-after', String(body.retry_after));
  // A server error or an outage is never stored, by a shared cache or the browser's.
  if (status >= 500) reply.header('cache-control', 'private, no-store');
  if (await sendFormBack(request, reply, status, body)) return reply;
  const site = request.server.site;
  if (site && wantsHtml(request)) {
    return site.renderError(request, reply, status, body);
  }
  return reply.code(status).send(body);
}

export default fp(errors, { name: 'civitas-errors' });
