/**
 * The identity operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { isoTime } from '../contract.ts';
import { operations } from '../registry/operation.ts';
import {
  returnField,
  ok,
  idpCallbackBody,
  THEMES,
  identityViewSchema,
  EMAIL_ACTIONS,
  emailSchema,
  EMAIL_STATUSES,
  callsignVisibilityBody,
  callsignVisibilityResult,
  dataRequestViewSchema,
  exportBundleSchema,
  DATA_REQUEST_KINDS,
} from './contract.ts';
import {
  initiateBody,
  documented,
  crossed,
  returnBody,
  signedInAs,
  reconciled,
  processBody,
  processed,
} from './contract/doors.ts';
import {
  firstCallReceiptSchema,
  ownerSchema,
  passportQuery,
  passportSchema,
  personalDataSchema,
  dataRequestQueueSchema,
} from './contract/pages.ts';

const { asset, feed, hybrid, mutation, page } = operations('identity');

/** Identity: crossing, sign-in, sessions, owner views and personal data requests. */
export const IDENTITY_OPERATIONS = [
  page('/begin', 'Start here: a free first call with no account, and the ways to cross into an identity', {
    GET: { policy: { cache: 'revalidate' } },
  }),
  page('/begin/receipt/{token}', 'The receipt of a first free call, shareable by its token', {
    GET: {
      // Not checked here: a token of the wrong form is answered like an unknown one (404).
      params: z.object({ token: z.string().describe('the receipt id (rcpt_…) of the first free call') }),
      response: firstCallReceiptSchema,
      policy: { cache: 'revalidate', page: { anonymous: 'public-1m' } },
    },
  }),
  page(
    '/initiate',
    'Crossing: POST mints a Sovereign Key (shown once) and a session; same-origin credential door',
    {
      methods: ['GET', 'POST'],
      POST: { body: initiateBody, ...documented, response: crossed, policy: { origin: 'credential' } },
    },
  ),
  page('/return', 'Sign in with a saved Sovereign Key (POST `key`); same-origin credential door', {
    methods: ['GET', 'POST'],
    identity: 'key',
    identityOn: ['POST'],
    POST: {
      body: returnBody,
      ...documented,
      response: z.object(signedInAs),
      policy: { origin: 'credential' },
    },
  }),
  page(
    '/reconcile',
    'Recover an identity with its Sovereign Key into the current session (alias door of /return); same-origin',
    {
      methods: ['GET', 'POST'],
      scope: 'identity:reconcile',
      alias: true,
      aliasOf: '/return',
      POST: { body: returnBody, ...documented, response: reconciled, policy: { origin: 'credential' } },
    },
  ),
  mutation(
    '/auth/idp/login',
    'Begin sign-in through the configured OpenID Connect provider (redirects to it)',
    {
      externalAuthority: 'idp-oidc',
      provider: 'identity',
      POST: {
        body: z.object({ link: z.enum(['0', '1', 'true', 'false']).optional(), ...returnField }),
        form: true,
        response: z.object({ ok, authorization_url: z.string() }),
        policy: { origin: 'credential' },
      },
    },
  ),
  mutation(
    '/auth/idp/callback',
    "The OpenID Connect provider's form_post callback: verifies the response and sets the session",
    {
      externalAuthority: 'idp-oidc',
      provider: 'identity',
      refuses: { POST: ['conflict'] },
      POST: {
        body: idpCallbackBody,
        form: true,
        validate: false,
        response: z.object({
          ok,
          tag: z.string(),
          ref: z.string(),
          created: z.boolean().describe('a new sovereign was made for this provider identity'),
          linked: z.boolean().describe('the provider identity was linked to the signed-in sovereign'),
          governance: z.boolean().describe('the sovereign holds a uniqueness receipt (governance:write)'),
          next: z.string(),
        }),
      },
    },
  ),
  mutation('/signout', 'End the current session and clear its cookie; same-origin credential door', {
    POST: {
      body: z.object(returnField),
      form: true,
      response: z.object({
        ok,
        signed_out: z.boolean(),
        receipt_id: z.string().nullable(),
        next: z.string(),
      }),
      policy: { origin: 'credential' },
    },
  }),
  mutation('/theme', 'Set the light/dark theme preference cookie and return to `return_to`; same-origin', {
    POST: {
      body: z.object({ theme: z.enum(THEMES), ...returnField }),
      form: true,
      response: z.object({ ok, theme: z.enum(THEMES), next: z.string() }),
      policy: { origin: 'credential' },
    },
  }),
  hybrid(
    '/identity',
    'Your identity: public tag, callsign, sign-in methods and granted scopes; JSON when asked',
    { GET: { response: identityViewSchema } },
  ),
  page('/sovereign', 'Owner view: your imprints, orders, pledges, prophecies, pacts and what comes due', {
    scope: 'sovereign:read',
    GET: {
      // Only documented: a feed flash that is not one is ignored, never refused.
      query: z.object({
        feed: z
          .string()
          .optional()
          .describe(
            'the one-time flash (fl_…) after setting the feed token; its answer shows the subscription once',
          ),
      }),
      validate: false,
      response: ownerSchema,
    },
  }),
  page(
    '/passport',
    "A sovereign's public passport by public tag: callsign if visible, standing, receipts (no raw id)",
    { GET: { query: passportQuery, response: passportSchema, policy: { cache: 'public-1m' } } },
  ),
  mutation('/sovereign/email', 'Set or remove the email used for due reminders and receipts', {
    scope: 'sovereign:write',
    provider: 'mail',
    POST: {
      // Strict, and removal only by `action=remove` (docs/identity.md): a request that says nothing
      // never deletes the address.
      body: z
        .strictObject({
          action: z.enum(EMAIL_ACTIONS).optional(),
          email: z.string().max(400).optional(),
          token: z.string().trim().max(200).optional(),
          ...returnField,
        })
        // The address is checked when it is to be set: by `action=set`, or sent alone.
        .superRefine((body, ctx) => {
          const action = body.action ?? (body.token ? 'verify' : body.email ? 'set' : undefined);
          if (action !== 'set') return;
          const address = emailSchema.safeParse(body.email ?? '');
          for (const issue of address.error?.issues ?? [])
            ctx.addIssue({ code: 'custom', path: ['email'], message: issue.message });
        }),
      form: true,
      response: z.union([
        z.object({ ok, status: z.enum(EMAIL_STATUSES), receipt_id: z.string() }),
        z.object({ ok, status: z.literal('feed_token_revoked') }),
        z.object({
          ok,
          status: z.literal('feed_token_rotated'),
          subscription: z
            .object({ token: z.string(), ics: z.string(), atom: z.string() })
            .describe('shown this once: keep it private'),
          hint: z.string(),
        }),
      ]),
    },
  }),
  mutation(
    '/sovereign/callsign-visibility',
    'Choose whether your callsign is shown publicly or only your tag',
    {
      scope: 'sovereign:write',
      POST: {
        body: callsignVisibilityBody,
        form: true,
        response: callsignVisibilityResult,
      },
    },
  ),
  page('/settings/data', 'Your personal data: what is held, and your export and erasure requests', {
    methods: ['GET', 'HEAD'],
    scope: 'sovereign:read',
    GET: { response: personalDataSchema },
  }),
  mutation(
    '/settings/data/request',
    'Your data requests: GET lists them, POST files an export or erasure request',
    {
      methods: ['GET', 'HEAD', 'POST'],
      scope: 'sovereign:write',
      refuses: { GET: ['conflict', 'not_found'], POST: ['conflict'] },
      GET: {
        query: z.object({
          download: z
            .string()
            .max(64)
            .optional()
            .describe('a completed export request id: answers its bundle as an attachment'),
        }),
        response: z.union([z.object({ ok, requests: z.array(dataRequestViewSchema) }), exportBundleSchema]),
      },
      POST: {
        // Files a request (`kind`), or withdraws one of yours still pending (`withdraw`): one of the two.
        body: z
          .object({
            kind: z.enum(DATA_REQUEST_KINDS).optional(),
            withdraw: z
              .string()
              .trim()
              .min(1)
              .max(64)
              .optional()
              .describe('the id of your own pending request, to withdraw it before a steward acts'),
            ...returnField,
          })
          .refine((b) => (b.kind === undefined) !== (b.withdraw === undefined), {
            message: 'Choose what to request, or which request to withdraw.',
            path: ['kind'],
          }),
        form: true,
        response: z.object({
          ok,
          request: z.object({
            id: z.string(),
            kind: z.enum(DATA_REQUEST_KINDS),
            status: z.enum(['pending', 'withdrawn']),
            created_at: isoTime,
            receipt_id: z.string(),
          }),
        }),
      },
    },
  ),
  page('/steward/data-requests', 'Steward queue of data export and erasure requests; POST processes one', {
    methods: ['GET', 'HEAD', 'POST'],
    scope: 'steward:write',
    refuses: { POST: ['conflict', 'not_found'] },
    GET: { response: dataRequestQueueSchema },
    POST: { body: processBody, ...documented, response: processed },
  }),
  asset('/passport/card.svg', "Card of a sovereign's public passport (by tag)", {
    // The card reads the same tag: the router refuses a malformed one alike, and the document says so.
    GET: { query: passportQuery, policy: { cache: 'public-5m' } },
  }),
  asset('/begin/receipt/{token}/card.svg', 'Card of a first-call receipt', {
    GET: { policy: { cache: 'public-5m' } },
  }),
  feed('/sovereign/due.ics', 'iCalendar feed of prophecies, pacts and confluences coming due', {
    identity: 'session',
    feedToken: true,
    GET: { policy: { cache: 'private' } },
  }),
  feed('/sovereign/due.xml', 'Atom feed of prophecies, pacts and confluences coming due', {
    identity: 'session',
    feedToken: true,
    GET: { policy: { cache: 'private' } },
  }),
];
