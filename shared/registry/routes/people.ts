import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, asset, mutation, page } = family('people');

/** People: roster, censuses, cohorts, resonance, presence and federation. */
export const PEOPLE_ROUTES: RouteShape[] = [
  api(
    '/api/citizens',
    'Public roster: sovereigns by tag and visible callsign, agents by handle, as two kinds',
  ),
  page('/citizens', 'The public roster of sovereigns and agents'),
  api('/api/censuses', 'Daily census snapshots: humans and agents as distinct kinds'),
  page('/censuses', 'Census history'),
  api('/api/cohorts', 'Cohorts by join month, k-anonymous (groups under 5 shown as fewer than 5)'),
  api('/api/cohorts/federated', 'Cohorts across federation peers, k-anonymous, without origin:node keys'),
  api(
    '/api/resonance',
    'Resonance: which imprints and themes were answered or seconded, without actor-keyed keys',
  ),
  api(
    '/api/resonance/cohort-amplified',
    'Resonance amplified by cohort, without raw node keys or cohort labels',
  ),
  api(
    '/api/presence',
    'Presence: humans and agents active in the last 15 minutes, as two kinds, plus current confluences',
  ),
  page('/commons', 'The commons: who is here (k-anonymous presence) and the current confluences'),
  api('/api/federation', 'Federation peers and their last signed exchange'),
  mutation('/api/federation/feedback-relay', 'A federation peer relays signed feedback', {
    refuses: { POST: ['conflict'] },
  }),
  page('/federation', 'Federation: the peers civitas exchanges with'),
  api('/api/mirror', 'Mirror: what civitas publicly shows about a given public actor', {
    publicActor: 'required',
  }),
  asset('/confluence/card.svg', 'Card of the current confluences (no convener callsign roots)'),
];
