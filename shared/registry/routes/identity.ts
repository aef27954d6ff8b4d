import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { asset, feed, hybrid, mutation, page } = family('identity');

/** Identity: crossing, sign-in, sessions, owner views and personal data requests. */
export const IDENTITY_ROUTES: RouteShape[] = [
  page('/begin', 'Start here: a free first call with no account, and the ways to cross into an identity'),
  page('/begin/receipt/{token}', 'The receipt of a first free call, shareable by its token'),
  page(
    '/initiate',
    'Crossing: POST mints a Sovereign Key (shown once) and a session; same-origin credential door',
    { methods: ['GET', 'POST'] },
  ),
  page('/return', 'Sign in with a saved Sovereign Key (POST `key`); same-origin credential door', {
    methods: ['GET', 'POST'],
    identity: 'key',
    identityOn: ['POST'],
  }),
  page(
    '/reconcile',
    'Recover an identity with its Sovereign Key into the current session (alias door of /return); same-origin',
    { methods: ['GET', 'POST'], scope: 'identity:reconcile', alias: true, aliasOf: '/return' },
  ),
  mutation(
    '/auth/idp/login',
    'Begin sign-in through the configured OpenID Connect provider (redirects to it)',
    { externalAuthority: 'idp-oidc', provider: 'identity' },
  ),
  mutation(
    '/auth/idp/callback',
    "The OpenID Connect provider's form_post callback: verifies the response and sets the session",
    { externalAuthority: 'idp-oidc', provider: 'identity', refuses: { POST: ['conflict'] } },
  ),
  mutation('/signout', 'End the current session and clear its cookie; same-origin credential door'),
  mutation('/theme', 'Set the light/dark theme preference cookie and return to `return_to`; same-origin'),
  hybrid(
    '/identity',
    'Your identity: public tag, callsign, sign-in methods and granted scopes; JSON when asked',
  ),
  page('/sovereign', 'Owner view: your imprints, orders, pledges, prophecies, pacts and what comes due', {
    scope: 'sovereign:read',
  }),
  page(
    '/passport',
    "A sovereign's public passport by public tag: callsign if visible, standing, receipts (no raw id)",
  ),
  mutation('/sovereign/email', 'Set or remove the email used for due reminders and receipts', {
    scope: 'sovereign:write',
    provider: 'mail',
  }),
  mutation(
    '/sovereign/callsign-visibility',
    'Choose whether your callsign is shown publicly or only your tag',
    { scope: 'sovereign:write' },
  ),
  page('/settings/data', 'Your personal data: what is held, and your export and erasure requests', {
    methods: ['GET', 'HEAD'],
    scope: 'sovereign:read',
  }),
  mutation(
    '/settings/data/request',
    'Your data requests: GET lists them, POST files an export or erasure request',
    {
      methods: ['GET', 'HEAD', 'POST'],
      scope: 'sovereign:write',
      refuses: { GET: ['conflict', 'not_found'], POST: ['conflict'] },
    },
  ),
  page('/steward/data-requests', 'Steward queue of data export and erasure requests; POST processes one', {
    methods: ['GET', 'HEAD', 'POST'],
    scope: 'steward:write',
    refuses: { POST: ['conflict', 'not_found'] },
  }),
  asset('/passport/card.svg', "Card of a sovereign's public passport (by tag)"),
  asset('/begin/receipt/{token}/card.svg', 'Card of a first-call receipt'),
  feed('/sovereign/due.ics', 'iCalendar feed of prophecies, pacts and confluences coming due', {
    identity: 'session',
    feedToken: true,
  }),
  feed('/sovereign/due.xml', 'Atom feed of prophecies, pacts and confluences coming due', {
    identity: 'session',
    feedToken: true,
  }),
];
