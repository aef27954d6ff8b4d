/**
 * The identity operations a session uses on itself: who it is, sign-out, theme, provider login,
 * owner settings and data requests (shared/contract.ts). Form posts answer 303; these schemas
 * describe the JSON answers.
 */
import { z } from 'zod';
import { defineContracts, isoTime } from '../contract.ts';

/** A callsign as typed: blank means none. */
export const callsignSchema = z
  .string()
  .trim()
  .max(40, 'A callsign is at most 40 characters.')
  .regex(/^[\p{L}\p{N} ._-]*$/u, 'A callsign may hold letters, digits, spaces, dots, underscores and hyphens.')
  .transform((value) => (value === '' ? null : value));

export const THEMES = ['light', 'dark', 'system'] as const;
export const DATA_REQUEST_KINDS = ['export', 'erasure'] as const;
export const EMAIL_ACTIONS = ['set', 'remove', 'verify', 'rotate_feed_token', 'revoke_feed_token'] as const;
/** What an email action did. */
export const EMAIL_STATUSES = ['verification_sent', 'verified', 'removed'] as const;

const ok = z.literal(true);
const returnField = { return_to: z.string().max(2048).optional() };

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

export const IDENTITY_CONTRACTS = defineContracts({
  'GET /identity': { response: identityViewSchema },
  'POST /signout': {
    body: z.object(returnField),
    form: true,
    response: z.object({ ok, signed_out: z.boolean(), receipt_id: z.string().nullable(), next: z.string() }),
  },
  'POST /theme': {
    body: z.object({ theme: z.enum(THEMES), ...returnField }),
    form: true,
    response: z.object({ ok, theme: z.enum(THEMES), next: z.string() }),
  },
  'POST /auth/idp/login': {
    body: z.object({ link: z.enum(['0', '1', 'true', 'false']).optional(), ...returnField }),
    form: true,
    response: z.object({ ok, authorization_url: z.string() }),
  },
  'POST /sovereign/callsign-visibility': {
    body: z.object({
      // A form sends a hidden `false` followed by the checkbox's `true` when ticked: the last value wins.
      visible: z.preprocess(
        (v) => (Array.isArray(v) ? v[v.length - 1] : v),
        z.union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0'])]).transform((v) => v === true || v === 'true' || v === 'on' || v === '1'),
      ),
      callsign: callsignSchema.optional(),
      ...returnField,
    }),
    form: true,
    response: z.object({ ok, callsign: z.string().nullable(), callsign_visible: z.boolean(), receipt_id: z.string() }),
  },
  'POST /sovereign/email': {
    body: z.object({
      action: z.enum(EMAIL_ACTIONS).optional(),
      email: z.string().max(400).optional(),
      token: z.string().trim().max(200).optional(),
      ...returnField,
    }),
    form: true,
    response: z.union([
      z.object({ ok, status: z.enum(EMAIL_STATUSES), receipt_id: z.string() }),
      z.object({ ok, status: z.literal('feed_token_revoked') }),
      z.object({
        ok,
        status: z.literal('feed_token_rotated'),
        subscription: z.object({ token: z.string(), ics: z.string(), atom: z.string() }).describe('shown this once: keep it private'),
        hint: z.string(),
      }),
    ]),
  },
  'POST /settings/data/request': {
    body: z.object({ kind: z.enum(DATA_REQUEST_KINDS), ...returnField }),
    form: true,
    response: z.object({
      ok,
      request: z.object({ id: z.string(), kind: z.enum(DATA_REQUEST_KINDS), status: z.literal('pending'), created_at: isoTime, receipt_id: z.string() }),
    }),
  },
});
