/**
 * The identity operations a session uses on itself: who it is, sign-out, theme, provider login,
 * owner settings and data requests (shared/contract.ts). Form posts answer 303; these schemas
 * describe the JSON answers.
 */
import { z } from 'zod';
import { isoTime } from '../contract.ts';

/** A callsign as typed: blank means none. */
export const callsignSchema = z
  .string()
  .trim()
  .max(40, 'A callsign is at most 40 characters.')
  .regex(
    /^[\p{L}\p{N} ._-]*$/u,
    'A callsign may hold letters, digits, spaces, dots, underscores and hyphens.',
  )
  .transform((value) => (value === '' ? null : value));

export const THEMES = ['light', 'dark', 'system'] as const;
export const DATA_REQUEST_KINDS = ['export', 'erasure'] as const;
export const DATA_REQUEST_STATUSES = ['pending', 'completed', 'declined', 'withdrawn'] as const;
export const EMAIL_ACTIONS = ['set', 'remove', 'verify', 'rotate_feed_token', 'revoke_feed_token'] as const;

/** An email address to set (POST /sovereign/email). */
export const emailSchema = z
  .string()
  .trim()
  .max(254, 'An email address is at most 254 characters.')
  .email('That is not an email address.');
/** What an email action did. */
export const EMAIL_STATUSES = ['verification_sent', 'verified', 'removed'] as const;

export const ok = z.literal(true);
export const returnField = { return_to: z.string().max(2048).optional() };

/** `/identity`: who the current session is, how it can sign in, and what it may do. */
export const identityViewSchema = z.object({
  ok,
  schema: z.literal('civitas.identity.v1'),
  signed_in: z.boolean(),
  tag: z.string().nullable(),
  ref: z.string().nullable(),
  callsign: z.string().nullable(),
  callsign_visible: z.boolean(),
  scopes: z.array(z.string()),
  sign_in_methods: z.object({ key: z.boolean(), provider: z.boolean(), provider_configured: z.boolean() }),
  email: z.object({ set: z.boolean(), verified: z.boolean(), pending: z.boolean() }),
  governance: z.object({ uniqueness_verified: z.boolean() }),
  ways_in: z.array(z.object({ rel: z.string(), method: z.string(), href: z.string(), reason: z.string() })),
});
export type IdentityView = z.infer<typeof identityViewSchema>;

/** A data request as its owner sees it (api/identity/data-requests.ts). */
export const dataRequestViewSchema = z.object({
  id: z.string(),
  kind: z.enum(DATA_REQUEST_KINDS),
  status: z.enum(DATA_REQUEST_STATUSES),
  created_at: isoTime,
  processed_at: isoTime.nullable(),
  note: z.string().nullable(),
  receipt_id: z.string(),
  download: z.string().nullable().describe('a completed export: GET it to download the bundle'),
});

/**
 * The personal-data bundle a completed export downloads (api/identity/data-held.ts buildBundle):
 * every family's declared sections (docs/identity.md "Personal data") beside these fields.
 */
export const exportBundleSchema = z
  .object({
    schema: z.literal('civitas.personal-data-export.v1'),
    generated_at: isoTime,
    request_id: z.string().nullable(),
    receipts: z.array(
      z.object({
        id: z.string(),
        step: z.string(),
        subject: z.string(),
        recorded_at: isoTime,
        leaf_hash: z.string(),
        log: z.object({ date: z.string(), leaf_index: z.number().int() }),
      }),
    ),
  })
  .catchall(z.unknown());

/**
 * The provider's answer to a sign-in (response_mode=form_post): `state` always, then `code`, or
 * `error`. The handler reads it itself (`validate: false`): a missing or unknown `state` is 400,
 * and a browser's form post that fails is sent to /return rather than shown a JSON refusal; every
 * field is handed to the OpenID Connect client as received.
 */
export const idpCallbackBody = z
  .object({
    state: z.string().min(1).max(200).describe('the state of the login this answers'),
    code: z.string().optional().describe('the authorization code'),
    iss: z.string().optional(),
    error: z.string().optional().describe('the provider did not sign the person in (access_denied, …)'),
    error_description: z.string().optional(),
  })
  .catchall(z.string());

/** POST /sovereign/callsign-visibility: whether the callsign shows, and optionally a new one. */
export const callsignVisibilityBody = z.object({
  // A form sends a hidden `false` followed by the checkbox's `true` when ticked: the last value wins.
  visible: z.preprocess(
    (v) => (Array.isArray(v) ? v[v.length - 1] : v),
    z
      .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0'])])
      .transform((v) => v === true || v === 'true' || v === 'on' || v === '1'),
  ),
  callsign: callsignSchema.optional(),
  ...returnField,
});

export const callsignVisibilityResult = z.object({
  ok,
  callsign: z.string().nullable(),
  callsign_visible: z.boolean(),
  receipt_id: z.string(),
});
