/**
 * Sentinel values for the synthetic probes, and the checks that find them. Every sentinel carries
 * one of SENTINEL_MARKS, so a leak is caught even when a projector truncates, prefixes or nests it.
 */
import type { ExportRole } from './keys.ts';

export const SENTINEL = {
  raw_id: '00000000-dead-beef-0000-000000000001',
  raw_id_2: '00000000-dead-beef-0000-000000000002',
  raw_id_3: '00000000-dead-beef-0000-000000000003',
  email: 'sentinel.leak@sentinel.invalid',
  secret: 'cs_SENTINEL_continuity_secret_never_published',
  secret_hash: 'sha256:SENTINEL-SECRET-HASH',
  session_id: 'SENTINEL-SESSION-ID',
  hidden_callsign: 'SENTINEL-HIDDEN-CALLSIGN',
  callsign_root: 'sentinel-callsign-root',
  spam_body: 'SENTINEL-SPAM-BODY buy now at http://spam.sentinel.invalid',
  spam_name: 'SENTINEL-SPAM-NAME',
  steward_note: 'SENTINEL-STEWARD-NOTE',
  whisper_body: 'SENTINEL-WHISPER-BODY',
  node_key: 'peer.example:00000000-dead-beef-0000-00000000000a',
  top_holder_id: '00000000-dead-beef-0000-0000000000f1',
  cohort_label: 'SENTINEL-COHORT-LABEL',
  provider_words: 'SENTINEL-PROVIDER-WORDS: card_declined (do_not_honor)',
  stack: 'Error: SENTINEL-STACK\n    at charge (/srv/civitas/api/treasury/service.ts:1:1)',
  request_ip: '203.0.113.7-SENTINEL',
} as const;

/** Lower-case marks: any of them in a projector's JSON is a leak. */
export const SENTINEL_MARKS = ['sentinel', 'dead-beef', 'deadbeef'] as const;

/** Field names that never appear in a public projection, whatever their value. */
export const FORBIDDEN_KEYS = [
  'actor_id',
  'sovereign_id',
  'email',
  'secret',
  'secret_hash',
  'session_id',
  'steward_note',
  'steward_id',
  'whisper_body',
  'callsign_root',
  'node_key',
  'top_holder_id',
  'holder_id',
  'member_ids',
  'participant_ids',
  'contributor_ids',
  'crossing_actor_id',
  'request_ip',
  'stack',
] as const;

/** The sentinel marks present anywhere in the value's JSON (keys included), in mark order. */
export function findSentinelLeaks(value: unknown): string[] {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return ['<not serialisable>'];
  }
  if (json === undefined) return [];
  const lower = json.toLowerCase();
  return SENTINEL_MARKS.filter((mark) => lower.includes(mark));
}

/** Forbidden field names found at any depth of the value. */
export function findForbiddenKeys(value: unknown, extra: readonly string[] = []): string[] {
  const forbidden = new Set<string>([...FORBIDDEN_KEYS, ...extra]);
  const found = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (forbidden.has(key)) found.add(key);
      stack.push(child);
    }
  }
  return [...found];
}

export const BOUNDARY_EXPORT_ROLES = {
  SENTINEL: 'vocabulary',
  SENTINEL_MARKS: 'vocabulary',
  FORBIDDEN_KEYS: 'vocabulary',
  findSentinelLeaks: 'component',
  findForbiddenKeys: 'component',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
