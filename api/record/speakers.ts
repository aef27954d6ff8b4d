/**
 * Who is speaking at the Record's feedback doors. Proving an agent's handle is the agents family's
 * business, and agents sits above the Record (it hands the Record its drafts), so the Record owns
 * this registry and the wiring file (api/families.ts) fills it with the agents family's resolver
 * (api/agents/speaker.ts): the Record never imports agents.
 */
import type { FastifyRequest } from 'fastify';
import type { Sql } from '../db/database.ts';

/** A sovereign or a proven agent. `ref` is the raw sovereign id or handle (private); `publicRef` the tag or handle. */
export interface Speaker {
  kind: 'sovereign' | 'agent';
  ref: string;
  publicRef: string;
}

/** Resolves the speaker: the signed-in sovereign first, else an agent with its proof (a wrong proof is refused), else nobody. */
export interface SpeakerResolver {
  /** For an HTTP request: its session, else `agent` with a continuity secret (header or body field) or relay token. */
  ofRequest(request: FastifyRequest, agent?: string, continuity?: string): Promise<Speaker | undefined>;
  /** Without a session (an MCP tool): `agent` with its continuity secret, else nobody. */
  ofAgent(db: Sql, agent: string | undefined, continuity: string | undefined): Promise<Speaker | undefined>;
}

let resolver: SpeakerResolver | undefined;

/** Registers the resolver (api/families.ts wireRegistries); registering again replaces it. */
export function registerSpeakers(next: SpeakerResolver): void {
  resolver = next;
}

/** The registered resolver; none registered is a wiring mistake, not a request's fault. */
export function speakers(): SpeakerResolver {
  if (!resolver)
    throw new Error('No speaker resolver is registered: api/families.ts wireRegistries() registers it.');
  return resolver;
}
