/**
 * Boundaries over cohorts and scores: cohort_projection, federated_cohort_projection,
 * cohort_amplified_projection, actor_score_map. A cohort is public only as its join month and
 * k-anonymous counts per kind; its internal label and member ids stay inside.
 */
import { publicActorRef, type ActorIdentity } from '../actor-ref.ts';
import { kAnonymousCount, type KAnonymousCount } from '../k-anonymity.ts';
import type { ExportRole } from '../keys.ts';

export interface CohortRecord {
  cohort_id: string;
  /** Internal label (may carry callsign roots or operator wording): never public. */
  label: string;
  joined_month: string;
  members: readonly { actor_id: string; kind: 'sovereign' | 'agent' }[];
  /** Kept counts per kind (the arrival tallies), standing in for `members` when present. */
  counts?: { humans: number; agents: number };
}

export interface CohortView {
  month: string;
  humans: KAnonymousCount;
  agents: KAnonymousCount;
}

function countKinds(members: readonly { kind: 'sovereign' | 'agent' }[]): {
  humans: KAnonymousCount;
  agents: KAnonymousCount;
} {
  let humans = 0;
  for (const member of members) if (member.kind !== 'agent') humans += 1;
  return { humans: kAnonymousCount(humans), agents: kAnonymousCount(members.length - humans) };
}

/** cohort_projection — `/api/cohorts`: join month and the two kinds, never summed, never small. */
export function projectCohorts(cohorts: readonly CohortRecord[]): CohortView[] {
  return cohorts.map((cohort) => ({
    month: cohort.joined_month,
    ...(cohort.counts
      ? { humans: kAnonymousCount(cohort.counts.humans), agents: kAnonymousCount(cohort.counts.agents) }
      : countKinds(cohort.members)),
  }));
}

export interface FederatedCohortRecord {
  /** Composite `origin:node` key of the peer's node: never public. */
  node_key: string;
  /** The peer's public name as listed on `/api/federation`. */
  peer: string;
  label: string;
  joined_month: string;
  /** The remote authors, each by its `origin:author` id and kind (a relay's author is `agent:` or `sovereign:`). */
  members: readonly { actor_id: string; kind: 'sovereign' | 'agent' }[];
  /** Kept counts per kind (migration 0085's), standing in for `members` when present. */
  counts?: { humans: number; agents: number };
}

export interface FederatedCohortView {
  peer: string;
  month: string;
  humans: KAnonymousCount;
  agents: KAnonymousCount;
}

/** federated_cohort_projection — `/api/cohorts/federated` and federated cohorts in `/api/state`: two kinds, never summed. */
export function projectFederatedCohorts(cohorts: readonly FederatedCohortRecord[]): FederatedCohortView[] {
  return cohorts.map((cohort) => ({
    peer: cohort.peer,
    month: cohort.joined_month,
    ...(cohort.counts
      ? { humans: kAnonymousCount(cohort.counts.humans), agents: kAnonymousCount(cohort.counts.agents) }
      : countKinds(cohort.members)),
  }));
}

export interface CohortAmplifiedRecord {
  computed_at: string;
  entries: readonly {
    node_key: string;
    cohort_label: string;
    joined_month: string;
    factor: number;
    contributor_ids: readonly string[];
  }[];
}

export interface CohortAmplifiedView {
  computed_at: string;
  entries: { month: string; factor: number; contributors: KAnonymousCount }[];
}

/** cohort_amplified_projection — `/api/resonance/cohort-amplified`. */
export function projectCohortAmplified(record: CohortAmplifiedRecord): CohortAmplifiedView {
  return {
    computed_at: record.computed_at,
    entries: record.entries.map((entry) => ({
      month: entry.joined_month,
      factor: entry.factor,
      contributors: kAnonymousCount(entry.contributor_ids.length),
    })),
  };
}

export interface ResonanceRecord {
  computed_at: string;
  window_days: number;
  /** Scores keyed by raw actor id, as the scorer produces them. */
  scores: Readonly<Record<string, number>>;
  /** The actors behind those keys, to build public refs from. */
  actors: Readonly<Record<string, ActorIdentity>>;
}

export interface ResonanceView {
  computed_at: string;
  window_days: number;
  entries: { actor: string; score: number }[];
}

/**
 * actor_score_map — `/api/resonance`: the map is re-keyed by public ref. A score whose actor
 * has no public ref (no tag, no handle) is dropped rather than keyed by anything private.
 */
export function projectResonance(record: ResonanceRecord): ResonanceView {
  const entries: { actor: string; score: number }[] = [];
  for (const [actorId, score] of Object.entries(record.scores)) {
    const actor = record.actors[actorId];
    if (!actor) continue;
    const ref = publicActorRef(actor);
    if (!ref.includes(':')) continue;
    entries.push({ actor: ref, score });
  }
  entries.sort((a, b) => b.score - a.score || (a.actor < b.actor ? -1 : 1));
  return { computed_at: record.computed_at, window_days: record.window_days, entries };
}

export const BOUNDARY_EXPORT_ROLES = {
  projectCohorts: 'censused',
  projectFederatedCohorts: 'censused',
  projectCohortAmplified: 'censused',
  projectResonance: 'censused',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
