/**
 * Synthetic probes for the boundaries over single records: ids, receipts, spam, whispers,
 * failures, passports. Literal records only; nothing here is read from storage.
 */
import type { BoundaryKey, ExportRole } from '../keys.ts';
import type { ProbeCase } from '../probe-check.ts';
import { SENTINEL } from '../sentinels.ts';
import { PROBE_AGENT, PROBE_SOVEREIGN, PROBE_VISIBLE_SOVEREIGN } from './fixtures.ts';

const LOG = { date: '2025-01-01', leaf_index: 7 };
const LEAF = '6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b';

const heldSpam = (hold_id: string, rule: string) => ({
  hold_id,
  body: SENTINEL.spam_body,
  name: SENTINEL.spam_name,
  author: PROBE_SOVEREIGN,
  rule,
  detail: `matched in ${SENTINEL.spam_body}`,
  status: 'held',
  held_at: '2025-01-01T00:00:00Z',
  steward_note: SENTINEL.steward_note,
});

export const RECORD_PROBES = {
  actor_id: [
    {
      name: 'sovereign with hidden callsign',
      args: [PROBE_SOVEREIGN],
      keeps: [
        { path: 'kind', equals: 'sovereign' },
        { path: 'ref', equals: 'sovereign:a1f3' },
        { path: 'display', equals: 'sovereign:a1f3' },
      ],
    },
    {
      name: 'agent',
      args: [PROBE_AGENT],
      keeps: [{ path: 'ref', equals: 'agent:probe-mind' }],
    },
  ],
  denial_receipt: [
    {
      name: 'crossing denial',
      args: [
        {
          receipt_id: 'rcpt_01J0000000000000000000PROB',
          step: 'denial',
          denied_action: 'reconcile',
          reason: 'key_mismatch',
          actor: PROBE_SOVEREIGN,
          crossing_actor_id: SENTINEL.raw_id_2,
          recorded_at: '2025-01-01T00:00:00Z',
          leaf_hash: LEAF,
          log: LOG,
          steward_note: SENTINEL.steward_note,
          request_ip: SENTINEL.request_ip,
          session_id: SENTINEL.session_id,
        },
      ],
      keeps: [
        { path: 'id' },
        { path: 'subject', equals: 'sovereign:a1f3' },
        { path: 'reason', equals: 'key_mismatch' },
        { path: 'log.leaf_index', equals: 7 },
      ],
    },
  ],
  held_spam: [
    {
      name: 'two holds and a released imprint',
      args: [
        [
          heldSpam('h1', 'link_density'),
          heldSpam('h2', 'burst'),
          { ...heldSpam('h3', 'burst'), status: 'released' },
        ],
      ],
      keeps: [
        { path: 'held', equals: 2 },
        { path: 'reasons.0.rule', equals: 'burst' },
        { path: 'reasons.0.count', equals: 1 },
        { path: 'reasons.1.reason', equals: 'too many links' },
      ],
      forbidKeys: ['body', 'name', 'detail', 'author'],
    },
  ],
  contribution_feed: [
    {
      name: 'unattested imprint of a sessionless human',
      args: [
        {
          sequence: 42,
          kind: 'thought',
          body: 'A public thought.',
          author: PROBE_SOVEREIGN,
          sovereign_id: SENTINEL.raw_id,
          quarantine: 'unattested',
          hold_rule: null,
          receipt_id: 'rcpt_01J0000000000000000000PROB',
          reply_to: null,
          created_at: '2025-01-01T00:00:00Z',
          spam_score: 0.01,
        },
      ],
      keeps: [
        { path: 'id', equals: 'imprint:42' },
        { path: 'content_text', equals: 'A public thought.' },
        { path: 'authors.0.name', equals: 'sovereign:a1f3' },
        { path: '_civitas.unattested', equals: true },
      ],
      forbidKeys: ['spam_score', 'hold_rule'],
    },
    {
      name: 'held imprint is no item',
      args: [
        {
          sequence: 43,
          kind: 'signal',
          body: SENTINEL.spam_body,
          author: PROBE_AGENT,
          sovereign_id: null,
          quarantine: 'held',
          hold_rule: 'bad_pattern',
          receipt_id: 'rcpt_01J0000000000000000000PRO2',
          reply_to: null,
          created_at: '2025-01-01T00:00:00Z',
        },
      ],
      keeps: [{ path: '', equals: null }],
    },
  ],
  whisper_archive: [
    {
      name: 'timeline with a whisper between public events',
      args: [
        [
          {
            event_id: 'ev1',
            kind: 'imprint',
            visibility: 'public',
            actor: PROBE_AGENT,
            summary: 'imprinted a thought',
            at: '2025-01-01T00:00:00Z',
          },
          {
            event_id: 'ev2',
            kind: 'whisper',
            visibility: 'steward',
            actor: PROBE_SOVEREIGN,
            summary: SENTINEL.whisper_body,
            at: '2025-01-01T00:01:00Z',
            steward_note: SENTINEL.steward_note,
            whisper_body: SENTINEL.whisper_body,
          },
          {
            event_id: 'ev3',
            kind: 'order',
            visibility: 'public',
            actor: PROBE_SOVEREIGN,
            summary: 'requested a change',
            at: '2025-01-01T00:02:00Z',
          },
        ],
      ],
      keeps: [
        { path: '0.id', equals: 'ev1' },
        { path: '1.id', equals: 'ev3' },
        { path: '1.actor', equals: 'sovereign:a1f3' },
        { path: 'length', equals: 2 },
      ],
    },
  ],
  whisper_receipt: [
    {
      name: 'receipt of a whisper step',
      args: [
        {
          receipt_id: 'rcpt_01J0000000000000000000WHSP',
          step: 'whisper',
          subject: PROBE_SOVEREIGN,
          steward_id: SENTINEL.raw_id_2,
          steward_note: SENTINEL.steward_note,
          whisper_body: SENTINEL.whisper_body,
          recorded_at: '2025-01-01T00:00:00Z',
          leaf_hash: LEAF,
          log: LOG,
        },
      ],
      keeps: [
        { path: 'id', equals: 'rcpt_01J0000000000000000000WHSP' },
        { path: 'step', equals: 'whisper' },
        { path: 'subject', equals: 'sovereign:a1f3' },
        { path: 'leaf_hash', equals: LEAF },
      ],
    },
  ],
  failure_projection: [
    {
      name: 'payment provider decline',
      args: [
        {
          lane: 'checkout',
          external: true,
          provider: 'stripe',
          provider_code: 'card_declined',
          message: SENTINEL.provider_words,
          stack: SENTINEL.stack,
          provider_request_id: 'req_SENTINEL',
          http_status: 402,
        },
      ],
      keeps: [
        { path: 'ok', equals: false },
        { path: 'reason', equals: 'provider_unavailable' },
        { path: 'hint' },
        { path: 'lane', equals: 'checkout' },
      ],
      forbidKeys: ['message', 'provider_code', 'provider_request_id'],
      judge: (output) =>
        JSON.stringify(output).includes('card_declined') ? "the provider's code passed through" : null,
    },
    {
      name: 'runtime error',
      args: [{ lane: 'mcp', external: false, message: SENTINEL.provider_words, stack: SENTINEL.stack }],
      keeps: [
        { path: 'reason', equals: 'internal_error' },
        { path: 'lane', equals: 'mcp' },
      ],
    },
  ],
  identity_addressing: [
    {
      name: 'tag with one holder',
      args: ['7c20', [{ ...PROBE_VISIBLE_SOVEREIGN, joined_at: '2025-01-01T00:00:00Z' }]],
      keeps: [
        { path: 'status', equals: 'addressable' },
        { path: 'holder.ref', equals: 'sovereign:7c20' },
        { path: 'holder.callsign', equals: 'Lumen' },
      ],
    },
    {
      name: 'colliding tag',
      args: [
        'a1f3',
        [
          { ...PROBE_SOVEREIGN, joined_at: '2025-01-01T00:00:00Z' },
          { ...PROBE_SOVEREIGN, actor_id: SENTINEL.raw_id_3, joined_at: '2025-02-01T00:00:00Z' },
        ],
      ],
      keeps: [
        { path: 'tag', equals: 'a1f3' },
        { path: 'status', equals: 'unaddressable' },
        { path: 'holder', equals: null },
      ],
    },
  ],
  quarantine_projection: [
    {
      name: 'unattested and held entries',
      args: [
        {
          unattested: [
            {
              sequence: 9,
              author: PROBE_AGENT,
              reason: 'open_handle',
              quarantined_at: '2025-01-01T00:00:00Z',
              steward_note: SENTINEL.steward_note,
            },
          ],
          held: [heldSpam('h9', 'repetition')],
        },
      ],
      keeps: [
        { path: 'unattested.0.author', equals: 'agent:probe-mind' },
        { path: 'unattested_count', equals: 1 },
        { path: 'held.held', equals: 1 },
        { path: 'held.reasons.0.rule', equals: 'repetition' },
      ],
      forbidKeys: ['body', 'name'],
    },
  ],
} satisfies Partial<Record<BoundaryKey, readonly ProbeCase[]>>;

export const BOUNDARY_EXPORT_ROLES = {
  RECORD_PROBES: 'vocabulary',
  BOUNDARY_EXPORT_ROLES: 'vocabulary',
} as const satisfies Record<string, ExportRole>;
