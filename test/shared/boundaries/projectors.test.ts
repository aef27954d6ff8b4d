import { describe, expect, it } from 'vitest';
import { FEWER_THAN_K, kAnonymousCount } from '../../../shared/boundaries/k-anonymity.ts';
import { publicActorRef } from '../../../shared/boundaries/actor-ref.ts';
import { projectActorRef } from '../../../shared/boundaries/projectors/actors.ts';
import { projectCohorts } from '../../../shared/boundaries/projectors/cohorts.ts';
import { projectFailure } from '../../../shared/boundaries/projectors/failures.ts';
import { projectCommons, projectPresence } from '../../../shared/boundaries/projectors/gatherings.ts';
import { projectContributionFeedItem, projectHeldSpam } from '../../../shared/boundaries/projectors/spam.ts';
import { projectEquity } from '../../../shared/boundaries/projectors/treasury.ts';
import { ERRORS } from '../../../shared/errors.ts';

const sovereign = (tag: string, extra = {}) => ({
  actor_id: crypto.randomUUID(),
  kind: 'sovereign' as const,
  tag,
  ...extra,
});

describe('kAnonymousCount', () => {
  it('shows counts from 5 up and hides smaller groups, zero included', () => {
    expect([0, 1, 2, 3, 4].map(kAnonymousCount)).toEqual(Array(5).fill(FEWER_THAN_K));
    expect(kAnonymousCount(5)).toBe(5);
    expect(kAnonymousCount(1234)).toBe(1234);
    expect(FEWER_THAN_K).toBe('fewer than 5');
  });

  it('never passes a non-integer through', () => {
    expect(kAnonymousCount(Number.NaN)).toBe(FEWER_THAN_K);
    expect(kAnonymousCount(5.5)).toBe(FEWER_THAN_K);
  });
});

describe('public actor references', () => {
  it('never falls back to the raw id', () => {
    const raw = crypto.randomUUID();
    expect(publicActorRef({ kind: 'sovereign', tag: raw })).toBe('sovereign');
    expect(publicActorRef({ kind: 'sovereign', tag: null })).toBe('sovereign');
    expect(publicActorRef({ kind: 'agent', handle: 'Bad Handle' })).toBe('agent');
    expect(
      projectActorRef({
        actor_id: raw,
        kind: 'sovereign',
        tag: 'beef',
        callsign: 'Lumen',
        callsign_visible: true,
      }),
    ).toEqual({
      kind: 'sovereign',
      ref: 'sovereign:beef',
      display: 'Lumen',
    });
  });
});

describe('held spam and feeds', () => {
  it('publishes counts and fixed reason words only, whatever the rule text says', () => {
    const hold = (rule: string, status: 'held' | 'released' = 'held') => ({
      hold_id: 'h',
      body: 'b',
      name: 'n',
      author: null,
      rule,
      status,
      held_at: 't',
    });
    expect(
      projectHeldSpam([hold('burst'), hold('burst'), hold('<script>'), hold('repetition', 'released')]),
    ).toEqual({
      held: 3,
      reasons: [
        { rule: 'burst', reason: 'burst of submissions', count: 2 },
        { rule: 'other', reason: 'held by the gate', count: 1 },
      ],
    });
    expect(projectHeldSpam([])).toEqual({ held: 0, reasons: [] });
  });

  it('counts a record that stands for many holds as that many, and one of none as none', () => {
    const hold = (rule: string, count?: number, status: 'held' | 'released' = 'held') => ({
      hold_id: '',
      body: 'secret',
      name: 'spammer',
      author: null,
      rule,
      status,
      held_at: '',
      ...(count === undefined ? {} : { count }),
    });
    const one = (rule: string, n: number) => Array.from({ length: n }, () => hold(rule));
    // the tallies' records (one per rule) project to exactly what one record per hold does
    expect(
      projectHeldSpam([hold('burst', 9065), hold('<script>', 3), hold('repetition', 2, 'released')]),
    ).toEqual(projectHeldSpam([...one('burst', 9065), ...one('<script>', 3)]));
    expect(projectHeldSpam([hold('burst', 2), hold('link_density', 0), hold('repetition', -1)])).toEqual({
      held: 2,
      reasons: [{ rule: 'burst', reason: 'burst of submissions', count: 2 }],
    });
  });

  it('drops held imprints from the contribution feed entirely', () => {
    const base = {
      sequence: 1,
      kind: 'thought' as const,
      body: 'hi',
      author: sovereign('a1f3'),
      receipt_id: 'r',
      reply_to: null,
      created_at: 't',
    };
    expect(projectContributionFeedItem({ ...base, quarantine: 'held' })).toBeNull();
    expect(projectContributionFeedItem({ ...base, quarantine: 'none' })?._civitas.unattested).toBe(false);
  });
});

describe('group projectors use k-anonymity', () => {
  it('presence counts the two kinds separately and never shows a small group', () => {
    const active = [
      ...Array.from({ length: 7 }, (_, i) => ({ ...sovereign('000' + (i % 10)), last_seen_at: 't' })),
      { actor_id: 'x', kind: 'agent' as const, handle: 'solo-mind', last_seen_at: 't' },
    ];
    expect(projectPresence({ window_minutes: 15, as_of: 't', active, confluences: [] })).toEqual({
      window_minutes: 15,
      as_of: 't',
      humans: 7,
      agents: FEWER_THAN_K,
      confluences: [],
    });
  });

  it('commons shows one hidden member as "fewer than 5", never as 1', () => {
    const view = projectCommons([
      {
        label: 'humans',
        members: [
          { ...sovereign('beef'), listed: true },
          { ...sovereign('cafe'), listed: false },
        ],
      },
    ]);
    expect(view).toEqual({ groups: [{ label: 'humans', listed: ['sovereign:beef'], others: FEWER_THAN_K }] });
  });

  it('cohorts publish the month and both kinds, never a total', () => {
    const members = [...Array(5)].map(() => ({ actor_id: 'id', kind: 'sovereign' as const }));
    expect(projectCohorts([{ cohort_id: 'c', label: 'internal', joined_month: '2025-02', members }])).toEqual(
      [{ month: '2025-02', humans: 5, agents: FEWER_THAN_K }],
    );
  });

  it('equity reports concentration without holder ids, and none under 5 holders (it would reveal how many)', () => {
    const view = projectEquity({
      total_units: 10,
      distribution: [1, 2, 3, 4].map((units) => ({ units, holders: 1 })),
      top_holder_id: 'h4',
      as_of: 't',
    });
    expect(view).toEqual({
      as_of: 't',
      total_units: 10,
      holders: FEWER_THAN_K,
      top_holder_share: null,
      gini: null,
    });
    const five = projectEquity({
      total_units: 15,
      distribution: [5, 3, 1, 4, 2].map((units) => ({ units, holders: 1 })),
      top_holder_id: 'h5',
      as_of: 't',
    });
    expect(five).toMatchObject({ holders: 5, top_holder_share: 0.3333, gini: 0.2667 });
    // Holders counted by amount give the figures of the holders one by one: 1, 1, 1, 2, 9, 9.
    const runs = projectEquity({
      total_units: 23,
      distribution: [
        { units: 9, holders: 2 },
        { units: 1, holders: 3 },
        { units: 2, holders: 1 },
        { units: 7, holders: 0 },
      ],
      top_holder_id: 'h9',
      as_of: 't',
    });
    const oneByOne = [1, 1, 1, 2, 9, 9];
    const weighted = oneByOne.reduce((sum, u, i) => sum + (2 * (i + 1) - 6 - 1) * u, 0);
    expect(runs).toMatchObject({
      holders: 6,
      top_holder_share: 0.3913,
      gini: Math.round((weighted / (6 * 23)) * 10_000) / 10_000,
    });
  });
});

describe('failure projection', () => {
  it("answers with the catalog's words, never the provider's", () => {
    const view = projectFailure({
      lane: 'unknown-lane',
      external: true,
      message: 'Your card was declined (acct_123)',
    });
    expect(view).toEqual({
      ok: false,
      reason: 'provider_unavailable',
      hint: ERRORS.provider_unavailable.hint,
      lane: 'runtime',
    });
  });
});
