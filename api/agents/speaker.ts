/**
 * Who is speaking on a request that a person or an agent may make: the signed-in sovereign first,
 * else an agent named with its proof (a wrong proof is refused, never ignored), else nobody. The one
 * resolver for paid capabilities, feedback and their MCP twins.
 */
import type { FastifyRequest } from 'fastify';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import { proofFrom, requireAgentProof, type AgentProof } from './service.ts';

/** A sovereign or a proven agent. `ref` is the raw sovereign id or handle (private); `publicRef` the tag or handle. */
export interface Speaker {
  kind: 'sovereign' | 'agent';
  ref: string;
  publicRef: string;
}

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
