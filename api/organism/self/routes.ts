/**
 * The organism's self: its whole state in one view, its persona (now, becoming, history,
 * narrative), soul, evolution, season and journal. Each GET is computed from stored rows on every
 * request (`no-store`); pages (/organism, /evolutions, /season, /journal) render the same projections.
 */
import { defineRoute } from '../../route.ts';
import { live } from '../live.ts';
import { evolutionProjection } from './evolution.ts';
import { journalProjection } from './journal.ts';
import { becomingProjection, historyProjection, narrativeProjection, personaProjection } from './persona.ts';
import { seasonProjection } from './season.ts';
import { soulProjection } from './soul.ts';
import { organismProjection, stateProjection } from './state.ts';

export const selfRoutes = [
  defineRoute('GET /api/state', { handler: live((request) => stateProjection(request.server.civitas)) }),
  defineRoute('GET /api/organism', { handler: live((request) => organismProjection(request.server)) }),
  defineRoute('GET /api/persona', { handler: live((request) => personaProjection(request.server)) }),
  defineRoute('GET /api/persona/becoming', { handler: live((request) => becomingProjection(request.server.civitas)) }),
  defineRoute('GET /api/persona/history', { handler: live((request) => historyProjection(request.server.civitas)) }),
  defineRoute('GET /api/persona/narrative', { handler: live((request) => narrativeProjection(request.server)) }),
  defineRoute('GET /api/soul', { handler: live((request) => soulProjection(request.server)) }),
  defineRoute('GET /api/evolution', { handler: live((request) => evolutionProjection(request.server.civitas)) }),
  defineRoute('GET /api/season', { handler: live((request) => seasonProjection(request.server.civitas)) }),
  defineRoute('GET /api/journal', { handler: live((request) => journalProjection(request.server.civitas, request.query)) }),
];
