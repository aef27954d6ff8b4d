/**
 * Who is speaking on a request that a person or an agent may make: the signed-in sovereign first,
 * else an agent named with its proof (a wrong proof is refused, never ignored), else nobody. The one
 * resolver for paid capabilities, feedback and their MCP twins.
 */
import type { FastifyRequest } from 'fastify';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import type { Speaker, SpeakerResolver } from '../record/speakers.ts';
import { proofFrom, requireAgentProof, type AgentProof } from './service.ts';

export type { Speaker };

export async function speakerOf(
  db: Sql,
  sovereign: SignedIn | null | undefined,
  agent?: string,
  proof: AgentProof = {},
): Promise<Speaker | undefined> {
  if (sovereign) return { kind: 'sovereign', ref: sovereign.sovereignId, publicRef: sovereign.tag };
  if (!agent) return undefined;
  const row = await requireAgentProof(db, agent, proof);
  return { kind: 'agent', ref: row.handle, publicRef: row.handle };
}

/** speakerOf for an HTTP request: its session, else `agent` with a continuity secret (header or body field) or relay token. */
export function speakerOfRequest(
  request: FastifyRequest,
  agent?: string,
  continuity?: string,
): Promise<Speaker | undefined> {
  return speakerOf(request.server.civitas.db, request.sovereign, agent, proofFrom(request, continuity));
}

/** The Record's speaker registry (api/record/speakers.ts), filled by api/families.ts. */
export const agentSpeakers: SpeakerResolver = {
  ofRequest: speakerOfRequest,
  ofAgent: (db, agent, continuity) => speakerOf(db, null, agent, { continuity }),
};
