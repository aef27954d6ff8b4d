/**
 * The one error catalog (DESIGN.md section 6). Every refusal leaves as
 * `{ ok: false, reason, hint, ...extra }` with the status named here.
 */
export const ERRORS = {
  invalid_request: { status: 400, hint: 'Fix the fields listed in issues and send the request again.' },
  off_origin_target: {
    status: 400,
    hint: 'return_to must be a local path such as /sovereign; off-origin targets are refused.',
  },
  identity_required: {
    status: 401,
    hint: 'Sign in (cross at /initiate or return with your key at /return), then try again.',
  },
  continuity_proof_invalid: {
    status: 401,
    hint: 'Send the continuity secret you were given in X-Civitas-Continuity, or the relay token as Authorization: Bearer rt_…; do not change the handle.',
  },
  quote: {
    status: 402,
    hint: 'A quote is not a purchase. Nothing was charged; pay only by an explicit human decision.',
  },
  scope_required: {
    status: 403,
    hint: 'Your session lacks the scope this operation needs. Stop and resolve identity or scope; do not change actor identifiers.',
  },
  peer_refused: {
    status: 403,
    hint: 'Only a configured federation peer may relay, with a valid Ed25519 JWS for this service; see /api/federation.',
  },
  cross_origin_refused: {
    status: 403,
    hint: "A change that a session cookie authorises must come from the service's own pages: Origin equal to the service's origin (browsers send it), or Sec-Fetch-Site: same-origin. Programs authenticate by header and send no cookie.",
  },
  not_found: { status: 404, hint: 'Nothing is recorded under that identifier. Check it and try again.' },
  unknown_agent: {
    status: 404,
    hint: 'POST /api/agent/imprint with your handle in the `agent` field, then return here to watch naturalization.',
  },
  method_not_allowed: { status: 405, hint: 'This path does not accept that method; see /openapi.json.' },
  conflict: {
    status: 409,
    hint: 'The request conflicts with the current state; read the state and decide again.',
  },
  uri_too_long: {
    status: 414,
    hint: 'A path segment is longer than the service accepts (200 characters). Shorten it.',
  },
  payload_too_large: {
    status: 413,
    hint: 'The body is larger than 64 KiB. Reduce it; retrying the same body will not help.',
  },
  unsupported_media_type: {
    status: 415,
    hint: 'Send application/json or application/x-www-form-urlencoded.',
  },
  rate_limited: {
    status: 429,
    hint: 'Wait for retry_after seconds (also in the Retry-After header) before trying again; avoid concurrent retries.',
  },
  internal_error: {
    status: 500,
    hint: 'Something failed on our side. The outcome of a write is unknown: check its receipt before repeating it.',
  },
  not_implemented: {
    status: 501,
    hint: 'This route is registered but its family is not built yet. See /atlas for what is real.',
  },
  provider_unavailable: { status: 503, hint: 'An external provider is unavailable. Try again later.' },
  unavailable: {
    status: 503,
    hint: 'The service is not ready (the database did not answer). Try again shortly.',
  },
} as const;

export type ErrorReason = keyof typeof ERRORS;

export interface ErrorBody {
  ok: false;
  reason: ErrorReason;
  hint: string;
  [extra: string]: unknown;
}

/** Builds the error body; `extra` may add fields (issues, scope, retry_after) but never replace the core three. */
export function errorBody(
  reason: ErrorReason,
  extra: Record<string, unknown> = {},
  hint?: string,
): ErrorBody {
  return { ...extra, ok: false, reason, hint: hint ?? ERRORS[reason].hint };
}

/** A refusal thrown from services and routes; the errors plugin turns it into the error body. */
export class Refusal extends Error {
  readonly reason: ErrorReason;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly customHint?: string;
  constructor(reason: ErrorReason, extra: Record<string, unknown> = {}, hint?: string) {
    super(reason);
    this.reason = reason;
    this.status = ERRORS[reason].status;
    this.extra = extra;
    this.customHint = hint;
  }
  body(): ErrorBody {
    return errorBody(this.reason, this.extra, this.customHint);
  }
}
