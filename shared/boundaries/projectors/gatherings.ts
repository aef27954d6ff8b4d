/**
 * Boundaries over who is around: confluence_slug, presence_roster, anonymity_cardinality.
 * Every group count passes through kAnonymousCount.
 */
import { publicActorRef, type ActorIdentity } from '../actor-ref.ts';
import { kAnonymousCount, type KAnonymousCount } from '../k-anonymity.ts';
import type { ExportRole } from '../keys.ts';

/** A gathering convened by a sovereign. Its internal slug is built from the convener's callsign root. */
export interface ConfluenceRecord {
  id: string;
  slug: string;
  title: string;
  convener: ActorIdentity;
  callsign_root: string;
  starts_at: string;
  ends_at: string | null;
  participant_ids: readonly string[];
}

export interface ConfluenceView {
  id: string;
  title: string;
  convener: string;
  starts_at: string;
  ends_at: string | null;
  /** Who joined, by kind (INTERFACE.md item 2: humans and agents are never added into one number). */
  participants: { humans: KAnonymousCount; agents: KAnonymousCount };
}

/** Participant ids read `sovereign:<id>` or `agent:<handle>`; each kind is counted on its own. */
function participantsByKind(ids: readonly string[]): ConfluenceView['participants'] {
  const humans = ids.filter((id) => id.startsWith('sovereign:')).length;
  const agents = ids.filter((id) => id.startsWith('agent:')).length;
  return { humans: kAnonymousCount(humans), agents: kAnonymousCount(agents) };
}

/** confluence_slug — confluence surfaces, the due feed, `/confluence/card.svg`, presence. */
export function projectConfluence(confluence: ConfluenceRecord): ConfluenceView {
  return {
    id: confluence.id,
    title: confluence.title,
    convener: publicActorRef(confluence.convener),
    starts_at: confluence.starts_at,
    ends_at: confluence.ends_at,
    participants: participantsByKind(confluence.participant_ids),
  };
}

export interface PresenceRecord {
  window_minutes: number;
  as_of: string;
  /** Everyone seen in the window, with their raw ids. */
  active: readonly (ActorIdentity & { last_seen_at: string })[];
  confluences: readonly ConfluenceRecord[];
}

export interface PresenceView {
  window_minutes: number;
  as_of: string;
  humans: KAnonymousCount;
  agents: KAnonymousCount;
  confluences: ConfluenceView[];
}

/** presence_roster — `/api/presence`, MCP `civitas_presence` and `civitas_status`: two kinds, counted. */
export function projectPresence(presence: PresenceRecord): PresenceView {
  let humans = 0;
  let agents = 0;
  for (const actor of presence.active) {
    if (actor.kind === 'agent') agents += 1;
    else humans += 1;
  }
  return {
    window_minutes: presence.window_minutes,
    as_of: presence.as_of,
    humans: kAnonymousCount(humans),
    agents: kAnonymousCount(agents),
    confluences: presence.confluences.map(projectConfluence),
  };
}

export interface CommonsGroupRecord {
  label: string;
  members: readonly (ActorIdentity & { listed: boolean })[];
}

export interface CommonsGroupView {
  label: string;
  listed: string[];
  /** Members who chose not to be listed, behind a placeholder. */
  others: KAnonymousCount;
}

/**
 * anonymity_cardinality — `/commons`, the MCP commons graph. Listed members appear by public ref;
 * the rest are one placeholder whose count never reveals a group of one. No exact total is
 * published beside it, so the hidden count cannot be recovered by subtraction.
 */
export function projectCommons(groups: readonly CommonsGroupRecord[]): { groups: CommonsGroupView[] } {
  return {
    groups: groups.map((group) => {
      const listed: string[] = [];
      let hidden = 0;
      for (const member of group.members) {
        const ref = publicActorRef(member);
        if (member.listed === true && ref.includes(':')) listed.push(ref);
        else hidden += 1;
      }
      return { label: group.label, listed, others: kAnonymousCount(hidden) };
    }),
  };
}

export const BOUNDARY_EXPORT_ROLES = {
  projectConfluence: 'censused',
  projectPresence: 'censused',
  projectCommons: 'censused',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
