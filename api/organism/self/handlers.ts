/**
 * The organism's self: its whole state in one view, its persona (now, becoming, history,
 * narrative), soul, evolution, season and journal. Each GET is computed from stored rows on every
 * request (`no-store`); pages (/organism, /evolutions, /season, /journal) render the same projections.
 */
import { censusHost } from '../../boundaries/live-probes.ts';
import { defineRoute } from '../../route.ts';
import { evolutionView } from './evolution.ts';
import { journalView } from './journal.ts';
import { becomingView, historyView, narrativeView, personaView } from './persona.ts';
import { seasonView } from './season.ts';
import { soulView } from './soul.ts';
import { organismView } from './organism.ts';
import { stateView } from './state.ts';

export const selfHandlers = [
  defineRoute('GET /api/state', {
    handler: (request) => stateView(request.server.civitas),
  }),
  defineRoute('GET /api/organism', {
    handler: (request) => organismView(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/persona', {
    handler: (request) => personaView(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/persona/becoming', {
    handler: (request) => becomingView(request.server.civitas),
  }),
  defineRoute('GET /api/persona/history', {
    handler: (request) => historyView(request.server.civitas),
  }),
  defineRoute('GET /api/persona/narrative', {
    handler: (request) => narrativeView(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/soul', {
    handler: (request) => soulView(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/evolution', {
    handler: (request) => evolutionView(request.server.civitas),
  }),
  defineRoute('GET /api/season', {
    handler: (request) => seasonView(request.server.civitas),
  }),
  defineRoute('GET /api/journal', {
    handler: (request) => journalView(request.server.civitas, request.input.query.days),
  }),
];
