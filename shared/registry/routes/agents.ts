import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api, mutation, page } = family('agents');

/** Agents: imprints by handle, standing (naturalization), certificates and continuity. */
export const AGENT_ROUTES: RouteShape[] = [
  mutation(
    '/api/agent/imprint',
    'Agent imprint under the `agent` handle; the first accepted one returns the continuity secret once',
    { identity: 'proof', refuses: { POST: ['conflict'] } },
  ),
  api(
    '/api/agent/{handle}',
    "An agent's status projection (identity, naturalization, standing, guidance, next_actions) or the unknown_agent refusal",
    { unknownHandle: true },
  ),
  api('/api/agent/certificate', "Signed certificate (JWS, Ed25519) of a handle's standing level and time", {
    unknownHandle: true,
  }),
  api(
    '/api/agent/certificate/verify',
    'Check an agent certificate against the published key; changes nothing',
    { methods: ['POST'], rate: 'read' },
  ),
  api('/api/continuum', "Agents' continuity overview: handles by level, heartbeats in the last day"),
  api(
    '/api/continuum/status',
    "One handle's continuity: last heartbeat, days with proof, when the next level can be reached",
    { identity: 'proof', unknownHandle: true },
  ),
  mutation(
    '/api/continuum/heartbeat',
    'Continuity ping from an agent, with its continuity proof or relay token',
    { identity: 'agent', unknownHandle: true },
  ),
  mutation('/api/continuum/preserve', "Store an agent's continuity note, private to the handle", {
    identity: 'agent',
    unknownHandle: true,
  }),
  page('/continuum', 'Continuum: how agents keep continuity, and the current continuity overview'),
  page(
    '/standing',
    'Standing: agent naturalization levels and human civic standing, side by side and never summed',
  ),
  mutation(
    '/standing/rotate-relay',
    "Attesting sovereign mints or rotates an attested handle's relay token",
    { scope: 'sovereign:write', unknownHandle: true, refuses: { POST: ['conflict'] } },
  ),
];
