import type { ExportRole } from './keys.ts';

/**
 * What the service stores about an actor wherever one is referenced. `actor_id` is the raw UUID
 * (sovereign) or internal row id (agent) and never leaves; `tag` is the public 4-hex tag, computed
 * elsewhere (address-pressure.ts `actorTag`) and handed in.
 */
export interface ActorIdentity {
  actor_id: string;
  kind: 'sovereign' | 'agent';
  tag?: string | null;
  handle?: string | null;
  callsign?: string | null;
  callsign_visible?: boolean;
  callsign_root?: string | null;
  email?: string | null;
  secret_hash?: string | null;
}

const TAG = /^[0-9a-f]{4}$/;
const HANDLE = /^[a-z0-9][a-z0-9._-]{1,62}$/;

export function isPublicTag(value: unknown): value is string {
  return typeof value === 'string' && TAG.test(value);
}

/**
 * The public reference of an actor: `sovereign:<tag>` or `agent:<handle>` (DESIGN.md section 2).
 * When the public part is missing or malformed the reference degrades to the bare kind — it never
 * falls back to the raw id.
 */
export function publicActorRef(actor: Pick<ActorIdentity, 'kind' | 'tag' | 'handle'>): string {
  if (actor.kind === 'agent')
    return typeof actor.handle === 'string' && HANDLE.test(actor.handle) ? `agent:${actor.handle}` : 'agent';
  return isPublicTag(actor.tag) ? `sovereign:${actor.tag}` : 'sovereign';
}

export const BOUNDARY_EXPORT_ROLES = {
  isPublicTag: 'component',
  publicActorRef: 'component',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
