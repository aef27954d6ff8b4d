import type { FastifyRequest } from 'fastify';
import { defineRoute, type RouteRequest } from '../route.ts';
import { sessionOf } from '../plugins/session.ts';
import { beginReceipt } from './begin-receipt.ts';
import { identityView, passport } from './views.ts';
import { stewardQueue } from './data-rights.ts';
import { dataOverview } from './data-held.ts';
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

/** The passport page and its JSON (the router checks the tag): shareable for a minute, either way. */
const passportRoute = {
  handler: (request: FastifyRequest) =>
    passport(request.server.civitas, (request as RouteRequest<'GET /passport'>).input.query.tag),
  page: true as const,
};

async function beginReceiptJson(request: RouteRequest<'GET /begin/receipt/{token}'>) {
  const { token } = request.input.params;
  return beginReceipt(request.server.civitas, token);
}

export const identityRoutes = [
  defineRoute('POST /initiate', { handler: initiate }),
  defineRoute('POST /return', { handler: returnWithKey }),
  defineRoute('POST /reconcile', { handler: reconcile }),
  defineRoute('POST /signout', { handler: signout }),
  defineRoute('POST /theme', { handler: theme }),
  defineRoute('POST /auth/idp/login', { handler: idpLogin }),
  defineRoute('POST /auth/idp/callback', { handler: idpCallback }),
  defineRoute('GET /identity', {
    handler: (request) => identityView(request.server.civitas, request.sovereign),
  }),
  defineRoute('GET /sovereign', { ...personalHybrid(ownerWithSubscription) }),
  defineRoute('GET /passport', passportRoute),
  defineRoute('GET /passport/card.svg', { handler: passportCard }),
  defineRoute('GET /begin/receipt/{token}', { handler: beginReceiptJson, page: true }),
  defineRoute('GET /begin/receipt/{token}/card.svg', { handler: beginReceiptCard }),
  defineRoute('POST /sovereign/email', { handler: email }),
  defineRoute('POST /sovereign/callsign-visibility', { handler: callsignVisibility }),
  defineRoute('GET /settings/data', {
    ...personalHybrid((request) => dataOverview(request.server.civitas, sessionOf(request))),
  }),
  defineRoute('GET /settings/data/request', { handler: dataRequests }),
  defineRoute('POST /settings/data/request', { handler: fileRequest }),
  defineRoute('GET /steward/data-requests', {
    ...personalHybrid((request) => stewardQueue(request.server.civitas)),
  }),
  defineRoute('POST /steward/data-requests', { handler: processRequest }),
  defineRoute('GET /sovereign/due.ics', { handler: dueFeed('ics') }),
  defineRoute('GET /sovereign/due.xml', { handler: dueFeed('atom') }),
];
