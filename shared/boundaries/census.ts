/**
 * The boundary census (`GET /api/boundaries`, `/boundaries`): every call runs all 23 synthetic
 * probes against the projectors as they are now; `active` is counted from those results and is
 * never stored. Header boundaries also take a live probe of the running app when one is given.
 */
import type { AddressPressure } from './address-pressure.ts';
import { passportView } from './address-pressure.ts';
import { isFullyAccounted, type Coverage } from './coverage.ts';
import { cacheControlForCredentialResponse, cacheControlForPersonalized } from './headers/cache.ts';
import type { HeaderProbe, HeaderProbeResult } from './headers/live-probes.ts';
import { safeReturnTarget } from './headers/navigation.ts';
import { isSameOriginRequest } from './headers/provenance.ts';
import { hstsHeader } from './headers/transport.ts';
import { BOUNDARY_KEYS, isHeaderBoundary, type BoundaryKey, type ExportRole } from './keys.ts';
import {
  deepFreeze,
  evaluateProbe,
  type BoundaryFunction,
  type ProbeCase,
  type ProbeOutcome,
} from './probe-check.ts';
import { GROUP_PROBES } from './probes/groups.ts';
import { HEADER_POLICY_PROBES } from './probes/headers.ts';
import { RECORD_PROBES } from './probes/records.ts';
import { projectActorRef, projectDenialReceipt, projectQuarantine } from './projectors/actors.ts';
import {
  projectCohortAmplified,
  projectCohorts,
  projectFederatedCohorts,
  projectResonance,
} from './projectors/cohorts.ts';
import { projectFailure } from './projectors/failures.ts';
import { projectCommons, projectConfluence, projectPresence } from './projectors/gatherings.ts';
import { projectContributionFeedItem, projectHeldSpam } from './projectors/spam.ts';
import { projectEquity, projectVitals } from './projectors/treasury.ts';
import { projectWhisperReceipt, projectWhisperTimeline } from './projectors/whispers.ts';
import { CENSUS_ROWS, type CensusRowSpec } from './rows.ts';

export const CENSUS_SCHEMA = 'civitas.boundary-census.v1';

export const IDENTITY_BOUNDARY =
  'Every probe in this census is a synthetic literal record written into the code, carrying sentinel values; no real actor is read or shown. Address pressure reports counts over public tags only.';

export const PRINCIPLE =
  'A boundary reads active only when its projector, run just now on a synthetic record, removed every sentinel (raw ids, spam bodies, secrets, notes, keys) and kept the public fields it must show. Nothing here is stored or assumed: a projector that stops redacting turns its row unbound on the next request.';

export const WIRING_PROOF =
  'The call sites are proved by test/shared/boundaries/*.test.ts (each projector and probe, each of the 23 broken in turn), test/api/boundaries/*.test.ts (this census served live, header probes against the running app, each of the 23 broken in the running app, the inventory traced from the code) and test/api/leak-crawler.test.ts (every published surface crawled for sentinels).';

const AUTHORITIES: Record<BoundaryKey, BoundaryFunction> = {
  actor_id: projectActorRef,
  denial_receipt: projectDenialReceipt,
  held_spam: projectHeldSpam,
  contribution_feed: projectContributionFeedItem,
  whisper_archive: projectWhisperTimeline,
  whisper_receipt: projectWhisperReceipt,
  confluence_slug: projectConfluence,
  shared_cache_audience: cacheControlForPersonalized,
  set_cookie_replay: cacheControlForCredentialResponse,
  connection_claim: hstsHeader,
  request_provenance: isSameOriginRequest,
  navigation_capability: safeReturnTarget,
  failure_projection: projectFailure,
  identity_addressing: passportView,
  anonymity_cardinality: projectCommons,
  actor_score_map: projectResonance,
  cohort_projection: projectCohorts,
  federated_cohort_projection: projectFederatedCohorts,
  cohort_amplified_projection: projectCohortAmplified,
  equity_projection: projectEquity,
  vitals_projection: projectVitals,
  quarantine_projection: projectQuarantine,
  presence_roster: projectPresence,
};

const PROBES: Record<BoundaryKey, readonly ProbeCase[]> = deepFreeze({
  ...RECORD_PROBES,
  ...GROUP_PROBES,
  ...HEADER_POLICY_PROBES,
});

/** The governing projector or policy function of a boundary (the row's `authority`). */
export function projectorFor(key: BoundaryKey): BoundaryFunction {
  return AUTHORITIES[key];
}

/** The synthetic probe cases of a boundary. */
export function probesFor(key: BoundaryKey): readonly ProbeCase[] {
  return PROBES[key];
}

/** Runs a boundary's synthetic probes against `project` (the real authority unless replaced). */
export function probeBoundary(key: BoundaryKey, project: BoundaryFunction = AUTHORITIES[key]): ProbeOutcome {
  const cases = PROBES[key];
  if (!cases || cases.length === 0) return { ok: false, detail: 'no synthetic probe' };
  for (const probe of cases) {
    const outcome = evaluateProbe(project, probe);
    if (!outcome.ok) return outcome;
  }
  return { ok: true, detail: `${cases.length} synthetic probe${cases.length === 1 ? '' : 's'} redacted` };
}

export interface ProbeOptions {
  /** Replacements for authorities, keyed by boundary (tests break one to watch its row go unbound). */
  projectors?: Partial<Record<BoundaryKey, BoundaryFunction>>;
  /** Live probe of the header boundaries against the running app. */
  headerProbe?: HeaderProbe;
  headerProbeTimeoutMs?: number;
}

export interface BoundaryProbeResult extends ProbeOutcome {
  key: BoundaryKey;
}

async function live(probe: HeaderProbe, key: BoundaryKey, timeoutMs: number): Promise<HeaderProbeResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<HeaderProbeResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, detail: `live probe gave no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  try {
    const result = await Promise.race([probe(key as Parameters<HeaderProbe>[0]), timeout]);
    return result && result.ok === true
      ? { ok: true, detail: String(result.detail) }
      : { ok: false, detail: String(result?.detail ?? 'live probe failed') };
  } catch {
    return { ok: false, detail: 'live probe threw' };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes all 23 boundaries in INTERFACE.md's order. A header boundary must pass its pure policy
 * probe and, when `headerProbe` is given, its live probe as well.
 */
export async function probeBoundaries(options: ProbeOptions = {}): Promise<BoundaryProbeResult[]> {
  const timeoutMs = options.headerProbeTimeoutMs ?? 5_000;
  return Promise.all(
    BOUNDARY_KEYS.map(async (key) => {
      const pure = probeBoundary(key, options.projectors?.[key] ?? AUTHORITIES[key]);
      if (!pure.ok || !options.headerProbe || !isHeaderBoundary(key)) return { key, ...pure };
      const result = await live(options.headerProbe, key, timeoutMs);
      return {
        key,
        ok: result.ok,
        detail: result.ok ? `${pure.detail}; live: ${result.detail}` : `live: ${result.detail}`,
      };
    }),
  );
}

export interface CensusRow extends CensusRowSpec {
  status: 'active' | 'unbound';
}

export interface CensusBody {
  ok: true;
  schema: typeof CENSUS_SCHEMA;
  identity_boundary: string;
  total_boundaries: number;
  active: number;
  unbound_count: number;
  all_bound: boolean;
  fully_accounted: boolean;
  coverage: Coverage;
  address_pressure: AddressPressure;
  boundaries: CensusRow[];
  principle: string;
  wiring_proof: string;
  proof: { human: '/boundaries'; machine: '/api/boundaries' };
}

export interface CensusOptions extends ProbeOptions {
  /** The inventory computed by the API's scanner with computeCoverage. */
  coverage: Coverage;
  /** Address pressure of the live population, from addressPressure(tags). */
  addressPressure: AddressPressure;
}

/** Assembles the census body from probe results (exposed so a page can show the same figures). */
export function censusBody(
  results: readonly BoundaryProbeResult[],
  coverage: Coverage,
  pressure: AddressPressure,
): CensusBody {
  const passed = new Map(results.map((result) => [result.key, result.ok]));
  const boundaries: CensusRow[] = CENSUS_ROWS.map((row) => ({
    key: row.key,
    label: row.label,
    authority: row.authority,
    guards: row.guards,
    closes: row.closes,
    status: passed.get(row.key) === true ? 'active' : 'unbound',
  }));
  const active = boundaries.filter((row) => row.status === 'active').length;
  return {
    ok: true,
    schema: CENSUS_SCHEMA,
    identity_boundary: IDENTITY_BOUNDARY,
    total_boundaries: boundaries.length,
    active,
    unbound_count: boundaries.length - active,
    all_bound: active === boundaries.length && boundaries.length === BOUNDARY_KEYS.length,
    fully_accounted: isFullyAccounted(coverage),
    coverage,
    address_pressure: pressure,
    boundaries,
    principle: PRINCIPLE,
    wiring_proof: WIRING_PROOF,
    proof: { human: '/boundaries', machine: '/api/boundaries' },
  };
}

/** The full `GET /api/boundaries` body, re-proved on this call. */
export async function runCensus(options: CensusOptions): Promise<CensusBody> {
  return censusBody(await probeBoundaries(options), options.coverage, options.addressPressure);
}

export const BOUNDARY_EXPORT_ROLES = {
  CENSUS_SCHEMA: 'vocabulary',
  IDENTITY_BOUNDARY: 'vocabulary',
  PRINCIPLE: 'vocabulary',
  WIRING_PROOF: 'vocabulary',
  projectorFor: 'resolver',
  probesFor: 'resolver',
  probeBoundary: 'resolver',
  probeBoundaries: 'resolver',
  censusBody: 'resolver',
  runCensus: 'resolver',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
