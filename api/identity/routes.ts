import type { FastifyRequest } from 'fastify';
import { defineRoute, type RouteRequest } from '../route.ts';
import { beginReceipt } from './begin-receipt.ts';
import { identityView, passport } from './views.ts';
import { dataOverview, stewardQueue } from './data-rights.ts';
import { personalHybrid } from './http.ts';
import { beginReceiptCard, passportCard } from './cards.ts';
import { dueFeed } from './due.ts';
import {
  idpCallback,
  idpLogin,
  initiate,
  reconcile,
  returnWithKey,
  signout,
  theme,
} from './crossing-doors.ts';
import {
  callsignVisibility,
  dataRequests,
  email,
  fileRequest,
  ownerWithSubscription,
  processRequest,
} from './owner-doors.ts';
import { signedIn } from './request-bodies.ts';

/** The passport page and its JSON (the router checks the tag): shareable for a minute, either way. */
const passportRoute = {
  cache: 'public-1m' as const,
  handler: (request: FastifyRequest) =>
    passport(request.server.civitas, (request as RouteRequest<'GET /passport'>).input.query.tag),
  page: true as const,
};

async function beginReceiptJson(request: RouteRequest<'GET /begin/receipt/{token}'>) {
  const { token } = request.input.params;
  return beginReceipt(request.server.civitas, token);
}

export const identityRoutes = [
  defineRoute('POST /initiate', { cache: 'private', handler: initiate, credentialDoor: true }),
  defineRoute('POST /return', { cache: 'private', handler: returnWithKey, credentialDoor: true }),
  defineRoute('POST /reconcile', { cache: 'private', handler: reconcile, credentialDoor: true }),
  defineRoute('POST /signout', { cache: 'private', handler: signout, credentialDoor: true }),
  defineRoute('POST /theme', { cache: 'private', handler: theme, credentialDoor: true }),
  defineRoute('POST /auth/idp/login', { cache: 'private', handler: idpLogin, credentialDoor: true }),
  defineRoute('POST /auth/idp/callback', { cache: 'private', handler: idpCallback }),
  defineRoute('GET /identity', {
    cache: 'private',
    handler: (request) => identityView(request.server.civitas, request.sovereign),
  }),
  defineRoute('GET /sovereign', { cache: 'private', ...personalHybrid(ownerWithSubscription) }),
  defineRoute('GET /passport', passportRoute),
  defineRoute('GET /passport/card.svg', { cache: 'public-5m', handler: passportCard }),
  defineRoute('GET /begin/receipt/{token}', { handler: beginReceiptJson, page: true }),
  defineRoute('GET /begin/receipt/{token}/card.svg', { cache: 'public-5m', handler: beginReceiptCard }),
  defineRoute('POST /sovereign/email', { cache: 'private', handler: email }),
  defineRoute('POST /sovereign/callsign-visibility', { handler: callsignVisibility }),
  defineRoute('GET /settings/data', {
    cache: 'private',
    ...personalHybrid((request) => dataOverview(request.server.civitas, signedIn(request))),
  }),
  defineRoute('GET /settings/data/request', { cache: 'private', handler: dataRequests }),
  defineRoute('POST /settings/data/request', { handler: fileRequest }),
  defineRoute('GET /steward/data-requests', {
    cache: 'private',
    ...personalHybrid((request) => stewardQueue(request.server.civitas)),
  }),
  defineRoute('POST /steward/data-requests', { handler: processRequest }),
  defineRoute('GET /sovereign/due.ics', { cache: 'private', handler: dueFeed('ics') }),
  defineRoute('GET /sovereign/due.xml', { cache: 'private', handler: dueFeed('atom') }),
];
