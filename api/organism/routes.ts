/**
 * The organism: the service observing itself, one room per concept — its self (state, persona,
 * soul, evolution, season, journal), its vitals, its mind (claims, truth, trust), the themes of
 * the Record, the checks it runs on itself, the observatory and its experiments.
 */
import { bind } from '../route.ts';
import { checksHandlers } from './checks/handlers.ts';
import { experimentsHandlers } from './experiments/handlers.ts';
import { mindHandlers } from './mind/handlers.ts';
import { observatoryHandlers } from './observatory/handlers.ts';
import { selfHandlers } from './self/handlers.ts';
import { themesHandlers } from './themes/handlers.ts';
import { vitalsHandlers } from './vitals/handlers.ts';

/** Every organism operation, by key, room by room: each key's handler is defined in the room's handlers.ts. */
export const organismRoutes = [
  ...bind(selfHandlers, [
    'GET /api/state',
    'GET /api/organism',
    'GET /api/persona',
    'GET /api/persona/becoming',
    'GET /api/persona/history',
    'GET /api/persona/narrative',
    'GET /api/soul',
    'GET /api/evolution',
    'GET /api/season',
    'GET /api/journal',
  ]),
  ...bind(vitalsHandlers, [
    'GET /api/vitals',
    'GET /api/vitals/changes',
    'GET /api/metabolism',
    'GET /api/failures',
    'GET /api/promises',
    'GET /api/dispatch',
    'GET /api/recovery',
    'GET /metabolism',
    'GET /recovery',
    'GET /metabolism/card.svg',
    'GET /recovery/card.svg',
  ]),
  ...bind(mindHandlers, [
    'GET /api/mind',
    'POST /api/mind/stance',
    'GET /mind/feed.xml',
    'GET /api/truth',
    'GET /api/trust',
  ]),
  ...bind(themesHandlers, [
    'GET /api/drift',
    'GET /api/dreaming',
    'GET /dreaming/card.svg',
    'GET /api/constellation',
    'GET /dream-constellation',
  ]),
  ...bind(checksHandlers, [
    'GET /api/self-trials',
    'GET /api/vigilance',
    'GET /api/linearizability',
    'GET /api/policy/evaluate',
    'GET /api/why/{entity}',
    'GET /api/discrimination',
    'GET /discrimination',
  ]),
  ...bind(observatoryHandlers, [
    'GET /api/observatory',
    'GET /api/swarm',
    'GET /api/spines',
    'GET /api/cross',
    'GET /feed.xsl',
  ]),
  ...bind(experimentsHandlers, [
    'GET /api/experiments/prevention',
    'POST /api/experiments/prevention',
    'GET /experiments',
    'POST /experiments',
    'GET /api/expeditions/recovery-paradox',
    'GET /expeditions/recovery-paradox',
    'GET /expeditions',
    'POST /expeditions/recovery-paradox',
    'GET /branchworld/{id}',
  ]),
];
