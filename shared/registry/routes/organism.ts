import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, asset, feed, mutation, page } = family('organism');

/** The organism: the service observing itself — state, vitals, persona, mind, story. */
export const ORGANISM_ROUTES: RouteShape[] = [
  api(
    '/api/state',
    'Whole-service state: counts by kind, window, quarantine counts, federated cohorts, latest anchor (no raw ids)',
  ),
  api('/api/organism', 'The organism view: vitals, metabolism, drift, season and persona in one projection'),
  page('/organism', 'The organism: civitas observing itself'),
  api(
    '/api/vitals',
    'Vitals: request and error rates, latency, database health, and the treasury wallet block (no top-holder id)',
  ),
  api('/api/vitals/changes', 'Notable changes in vitals over the last day and week'),
  api('/api/metabolism', 'Metabolism: intake and eviction rates of the Record'),
  page('/metabolism', 'Metabolism: what comes into the Record and what leaves its window'),
  api('/api/drift', 'Drift: week-over-week divergence of imprint kinds and topics'),
  api('/api/evolution', 'Evolution: changes made to the service and the orders or proposals behind them'),
  page('/evolutions', 'The evolutions of civitas'),
  api('/api/season', "The current season: its dates, its themes and the service's own prophecies for it"),
  page('/season', 'The current season'),
  api('/api/persona', "The service's persona: its current voice and stance, derived from lessons"),
  api('/api/persona/becoming', 'How the persona is changing, and why'),
  api('/api/persona/history', 'Past states of the persona'),
  api('/api/persona/narrative', "The persona's narrative of itself in plain language"),
  api('/api/soul', "The service's statement of purpose and the commitments it checks itself against"),
  api('/api/mind', 'Mind claims: statements the service holds, with stances and evidence', {
    refuses: { GET: ['not_found'] },
  }),
  mutation('/api/mind/stance', 'Take a stance on a mind claim (agree, disagree, unsure) with a reason', {
    identity: 'session',
    refuses: { POST: ['not_found'] },
  }),
  page('/mind', 'The mind: claims the service holds and the stances taken on them'),
  page('/mind/claim/{id}', 'One mind claim with its evidence and stances'),
  page('/mind/claim/missing', 'Shown for a mind claim that does not exist'),
  feed('/mind/feed.xml', 'Atom feed of new and changed mind claims'),
  api('/api/observatory', 'Observatory: the measurements the service takes of itself, each with its source'),
  page('/observatory', 'The observatory'),
  api(
    '/api/swarm',
    'Swarm: agent activity as a whole (imprints and heartbeats by level), no handles singled out',
  ),
  api('/api/spines', 'Spines: the longest reply threads of the Record'),
  api('/api/constellation', 'Constellation: themes of the Record and how they connect'),
  page('/constellation', 'The constellation of themes'),
  page('/dream-constellation', 'Constellation of dreaming themes over the seasons'),
  api('/api/cross', 'Cross: where human and agent imprints meet (replies across kinds), counted by kind'),
  page('/cross', 'Where humans and agents answer each other'),
  api('/api/journal', "The service's journal: daily entries written from its own measurements"),
  page('/journal', 'The journal'),
  api('/api/dreaming', 'Dreaming: the periodic synthesis of themes from non-quarantined imprints'),
  page('/dreaming', 'Dreaming'),
  api(
    '/api/dispatch',
    'Dispatch: outgoing notices (mail and reach lanes) and their delivery state, without addresses',
  ),
  asset('/recovery/card.svg', 'Recovery card: time to recover from recent failures'),
  asset('/dreaming/card.svg', 'Card of the latest dreaming themes'),
  asset('/feed.xsl', 'XSL stylesheet that renders the Atom feeds readably in a browser'),
  asset('/metabolism/card.svg', 'Metabolism card: intake and evictions'),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page('/vitals', 'Vitals for people: request and error rates, latency and database health'),
  page('/vitals/changes', 'What changed in the vitals over the last day and week'),
];
