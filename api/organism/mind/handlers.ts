/**
 * The organism's mind: the claims it holds about itself (each checked against stored data now:
 * truth, and the history of those checks: trust), the stances people take on them, and the Atom
 * feed of their changes. Pages (/mind, /mind/claim/{id}, /truth, /trust) render the same projections.
 */
import { censusHost } from '../../boundaries/live-probes.ts';
import { defineRoute } from '../../route.ts';
import { mindFeed, mindView, stanceNeedsSession, takeStance } from './mind.ts';
import { trustView, truthView } from './truth-views.ts';

export const mindHandlers = [
  defineRoute('GET /api/mind', {
    handler: (request) => mindView(request.server.civitas, censusHost(request.server), request.input.query),
  }),
  defineRoute('POST /api/mind/stance', {
    preHandler: stanceNeedsSession,
    handler: takeStance,
  }),
  defineRoute('GET /mind/feed.xml', { handler: mindFeed }),
  defineRoute('GET /api/truth', {
    handler: (request) => truthView(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/trust', {
    handler: (request) => trustView(request.server.civitas),
  }),
];
