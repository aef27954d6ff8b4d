/**
 * The organism's self: its whole state in one view, its persona (now, becoming, history,
 * narrative), soul, evolution, season and journal. Each GET is computed from stored rows on every
 * request (`no-store`); pages (/organism, /evolutions, /season, /journal) render the same projections.
 */
import { censusHost } from '../../boundaries/live-probes.ts';
import { defineRoute } from '../../route.ts';
import { evolutionProjection } from './evolution.ts';
import { journalProjection } from './journal.ts';
import { becomingProjection, historyProjection, narrativeProjection, personaProjection } from './persona.ts';
import { seasonProjection } from './season.ts';
import { soulProjection } from './soul.ts';
import { organismProjection, stateProjection } from './state.ts';

export const selfHandlers = [
  defineRoute('GET /api/state', {
    cache: 'no-store',
    handler: (request) => stateProjection(request.server.civitas),
  }),
  defineRoute('GET /api/organism', {
    cache: 'no-store',
    handler: (request) => organismProjection(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/persona', {
    cache: 'no-store',
    handler: (request) => personaProjection(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/persona/becoming', {
    cache: 'no-store',
    handler: (request) => becomingProjection(request.server.civitas),
  }),
  defineRoute('GET /api/persona/history', {
    cache: 'no-store',
    handler: (request) => historyProjection(request.server.civitas),
  }),
  defineRoute('GET /api/persona/narrative', {
    cache: 'no-store',
    handler: (request) => narrativeProjection(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/soul', {
    cache: 'no-store',
    handler: (request) => soulProjection(request.server.civitas, censusHost(request.server)),
  }),
  defineRoute('GET /api/evolution', {
    cache: 'no-store',
    handler: (request) => evolutionProjection(request.server.civitas),
  }),
  defineRoute('GET /api/season', {
    cache: 'no-store',
    handler: (request) => seasonProjection(request.server.civitas),
  }),
  defineRoute('GET /api/journal', {
    cache: 'no-store',
    handler: (request) => journalProjection(request.server.civitas, request.input.query.days),
  }),
];
