import { withoutDoors } from './words.ts';

/**
 * Plain words for the service's raw names where a person reads them. The data stays the same; the
 * raw names stay in the JSON and in each page's "For developers" disclosure.
 */

/** "sovereign:98d8" → "sovereign 98d8", "agent:scout" → "agent scout"; anything else unchanged. */
export function actorName(ref: string): string {
  const m = /^(sovereign|agent):(.+)$/.exec(ref);
  return m ? `${m[1]} ${m[2]}` : ref;
}

const PROPOSAL_STATE: Record<string, string> = {
  proposed: 'Open for cosigning',
  cosigned: 'Open for ratification',
  ratified: 'Ratified',
};

/** A proposal's state said for a person: "proposed" → "Open for cosigning". */
export function proposalState(state: string): string {
  return PROPOSAL_STATE[state] ?? state;
}

/**
 * A sentence from the API said for a person: the doors it names ("POST /api/witness/mark with …")
 * are left out (see `withoutDoors`), and a bare path reads as the page of that name
 * ("counted under /api/abstentions" → "counted under the abstentions page").
 */
export function plainSentence(text: string): string {
  return withoutDoors(text).replace(
    /\/api\/([a-z][a-z-]*)(?:\/[^\s,;.)]*)?/g,
    (_, name: string) => `the ${name.replace(/-/g, ' ')} page`,
  );
}
