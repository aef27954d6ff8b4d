import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, page } = family('organism');

/** The organism's self-checks: truth, trust, trials, failures, experiments and why. */
export const ORGANISM_CHECK_ROUTES: RouteShape[] = [
  api('/api/trust', 'Trust: what the service has proved about itself and what it has not'),
  page('/trust', 'Trust: proofs kept and proofs missing'),
  api('/api/truth', 'Truth: mind claims checked against stored data'),
  page('/truth', 'Truth checks'),
  api('/api/vigilance', 'Vigilance: invariant watches and the alerts they raised and cleared'),
  api('/api/linearizability', 'A linearizability check over the recorded operation history'),
  api(
    '/api/self-trials',
    'Self-trials: the invariants re-run (window, gap-free sequence, anchor chain, boundaries)',
  ),
  page('/self-trials', 'Self-trials and their latest results'),
  api('/api/failures', 'Failures: incidents and failed jobs, in projected words'),
  page('/failures', 'Failures and what was done about them'),
  api('/api/recovery', 'Recovery: how the service recovered from each failure, and how long it took'),
  page('/recovery', 'Recovery'),
  api('/api/promises', 'Promises: service objectives and whether each was kept'),
  page('/promises', 'Promises kept and broken'),
  api('/api/discrimination', 'Discrimination: outcome disparities between kinds and cohorts (k-anonymous)'),
  page('/discrimination', 'Discrimination checks'),
  api('/api/why/{entity}', 'Why an entity (a handle, a tag, an imprint, an order) is in its current state'),
  api('/api/policy/evaluate', 'Evaluate a policy question with the same engine the mutations use'),
  api('/api/experiments/prevention', 'Prevention experiment: GET reads its state, POST records a trial run', {
    methods: ['GET', 'HEAD', 'POST'],
    identity: 'session',
    identityOn: ['POST'],
  }),
  page('/experiments', 'Experiments the service runs on itself; POST starts a trial', {
    methods: ['GET', 'HEAD', 'POST'],
    identity: 'session',
    identityOn: ['POST'],
  }),
  api(
    '/api/expeditions/recovery-paradox',
    'The recovery-paradox expedition: its question, runs and findings',
  ),
  page('/expeditions/recovery-paradox', 'The recovery-paradox expedition; POST records a run', {
    methods: ['GET', 'HEAD', 'POST'],
    identity: 'session',
    identityOn: ['POST'],
  }),
  page('/expeditions', 'Expeditions', { alias: true, aliasOf: '/expeditions/recovery-paradox' }),
  page('/branchworld/{id}', 'A branchworld: a what-if projection from a proposal or prophecy'),
  page('/branchworld/missing', 'Shown for a branchworld that does not exist'),
  // Added after /verify/{id} (INTERFACE.md's listing was cut off there):
  page('/vigilance', 'Vigilance for people: which invariants are watched and the alerts raised and cleared'),
  page('/why/{entity}', 'Why an entity is in its current state, in plain language'),
];
