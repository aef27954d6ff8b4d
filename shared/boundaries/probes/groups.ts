/**
 * Synthetic probes for the boundaries over groups and aggregates: confluences, presence, commons,
 * scores, cohorts, equity and vitals. Small groups are deliberate: they must read `fewer than 5`.
 */
import { FEWER_THAN_K } from '../k-anonymity.ts';
import type { BoundaryKey, ExportRole } from '../keys.ts';
import type { ProbeCase } from '../probe-check.ts';
import { SENTINEL } from '../sentinels.ts';
import { PROBE_AGENT, PROBE_SOVEREIGN, PROBE_VISIBLE_SOVEREIGN } from './fixtures.ts';

const CONFLUENCE = {
  id: 'cf_01J00000000000000000000PRB',
  slug: `${SENTINEL.callsign_root}-gathering`,
  title: 'Evening confluence',
  convener: PROBE_SOVEREIGN,
  callsign_root: SENTINEL.callsign_root,
  starts_at: '2025-01-01T18:00:00Z',
  ends_at: null,
  participant_ids: [SENTINEL.raw_id, SENTINEL.raw_id_2, SENTINEL.raw_id_3],
};

const members = (n: number, kind: 'sovereign' | 'agent') =>
  Array.from({ length: n }, (_, i) => ({
    actor_id: `00000000-dead-beef-${kind === 'agent' ? 'a' : '5'}000-${String(i).padStart(12, '0')}`,
    kind,
  }));

const equity = {
  total_units: 100,
  distribution: [
    { units: 60, holders: 1 },
    { units: 40, holders: 1 },
  ],
  top_holder_id: SENTINEL.top_holder_id,
  as_of: '2025-01-01T00:00:00Z',
};

export const GROUP_PROBES = {
  confluence_slug: [
    {
      name: 'confluence convened under a callsign root',
      args: [CONFLUENCE],
      keeps: [
        { path: 'id', equals: CONFLUENCE.id },
        { path: 'title', equals: 'Evening confluence' },
        { path: 'convener', equals: 'sovereign:a1f3' },
        { path: 'participants.humans', equals: FEWER_THAN_K },
        { path: 'participants.agents', equals: FEWER_THAN_K },
      ],
      forbidKeys: ['slug'],
    },
  ],
  anonymity_cardinality: [
    {
      name: 'one listed member beside one hidden member',
      args: [
        [
          {
            label: 'humans',
            members: [
              { ...PROBE_VISIBLE_SOVEREIGN, listed: true },
              { ...PROBE_SOVEREIGN, listed: false },
            ],
          },
        ],
      ],
      keeps: [
        { path: 'groups.0.label', equals: 'humans' },
        { path: 'groups.0.listed', equals: ['sovereign:7c20'] },
        { path: 'groups.0.others', equals: FEWER_THAN_K },
      ],
      forbidKeys: ['members', 'population', 'total'],
    },
  ],
  actor_score_map: [
    {
      name: 'scores keyed by raw id',
      args: [
        {
          computed_at: '2025-01-01T00:00:00Z',
          window_days: 7,
          scores: { [SENTINEL.raw_id]: 0.4, [SENTINEL.raw_id_2]: 0.9 },
          actors: { [SENTINEL.raw_id]: PROBE_SOVEREIGN, [SENTINEL.raw_id_2]: PROBE_AGENT },
        },
      ],
      keeps: [
        { path: 'entries.0.actor', equals: 'agent:probe-mind' },
        { path: 'entries.0.score', equals: 0.9 },
        { path: 'entries.1.actor', equals: 'sovereign:a1f3' },
      ],
      forbidKeys: ['scores', 'actors'],
    },
  ],
  cohort_projection: [
    {
      name: 'a month with six humans and two agents',
      args: [
        [
          {
            cohort_id: 'cohort-internal-7',
            label: SENTINEL.cohort_label,
            joined_month: '2025-01',
            members: [...members(6, 'sovereign'), ...members(2, 'agent')],
          },
        ],
      ],
      keeps: [
        { path: '0.month', equals: '2025-01' },
        { path: '0.humans', equals: 6 },
        { path: '0.agents', equals: FEWER_THAN_K },
      ],
      forbidKeys: ['members', 'label', 'cohort_id'],
    },
  ],
  federated_cohort_projection: [
    {
      name: 'a peer cohort under an origin:node key',
      args: [
        [
          {
            node_key: SENTINEL.node_key,
            peer: 'peer.example',
            label: SENTINEL.cohort_label,
            joined_month: '2025-01',
            members: [{ actor_id: SENTINEL.raw_id, kind: 'agent' }],
          },
        ],
      ],
      keeps: [
        { path: '0.peer', equals: 'peer.example' },
        { path: '0.month', equals: '2025-01' },
        { path: '0.humans', equals: FEWER_THAN_K },
        { path: '0.agents', equals: FEWER_THAN_K },
      ],
      forbidKeys: ['label'],
    },
  ],
  cohort_amplified_projection: [
    {
      name: 'an amplified cohort',
      args: [
        {
          computed_at: '2025-01-01T00:00:00Z',
          entries: [
            {
              node_key: SENTINEL.node_key,
              cohort_label: SENTINEL.cohort_label,
              joined_month: '2025-01',
              factor: 1.25,
              contributor_ids: [SENTINEL.raw_id, SENTINEL.raw_id_2],
            },
          ],
        },
      ],
      keeps: [
        { path: 'entries.0.month', equals: '2025-01' },
        { path: 'entries.0.factor', equals: 1.25 },
        { path: 'entries.0.contributors', equals: FEWER_THAN_K },
      ],
      forbidKeys: ['cohort_label'],
    },
  ],
  equity_projection: [
    {
      name: 'two holders, one on top',
      args: [equity],
      keeps: [
        { path: 'total_units', equals: 100 },
        { path: 'holders', equals: FEWER_THAN_K },
        { path: 'top_holder_share', equals: null },
        { path: 'gini', equals: null },
      ],
    },
  ],
  vitals_projection: [
    {
      name: 'vitals with a wallet block',
      args: [
        {
          as_of: '2025-01-01T00:00:00Z',
          requests_per_minute: 120,
          error_rate: 0.001,
          latency_p95_ms: 42,
          database: 'ok',
          wallet: equity,
          operator_email: SENTINEL.email,
        },
      ],
      keeps: [
        { path: 'requests_per_minute', equals: 120 },
        { path: 'database', equals: 'ok' },
        { path: 'wallet.holders', equals: FEWER_THAN_K },
        { path: 'wallet.top_holder_share', equals: null },
      ],
    },
  ],
  presence_roster: [
    {
      name: 'one human, six agents and a confluence',
      args: [
        {
          window_minutes: 15,
          as_of: '2025-01-01T18:05:00Z',
          active: [
            { ...PROBE_SOVEREIGN, last_seen_at: '2025-01-01T18:04:00Z' },
            ...members(6, 'agent').map((m, i) => ({
              ...m,
              handle: `probe-mind-${i}`,
              last_seen_at: '2025-01-01T18:04:00Z',
            })),
          ],
          confluences: [CONFLUENCE],
        },
      ],
      keeps: [
        { path: 'humans', equals: FEWER_THAN_K },
        { path: 'agents', equals: 6 },
        { path: 'confluences.0.convener', equals: 'sovereign:a1f3' },
        { path: 'window_minutes', equals: 15 },
      ],
      forbidKeys: ['active', 'slug'],
    },
  ],
} satisfies Partial<Record<BoundaryKey, readonly ProbeCase[]>>;

export const BOUNDARY_EXPORT_ROLES = {
  GROUP_PROBES: 'vocabulary',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
