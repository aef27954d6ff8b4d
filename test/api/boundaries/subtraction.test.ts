/**
 * k-anonymity against subtraction: every exact total published anywhere, minus every published
 * group of the same population (and minus every sum of such groups), must never leave 1–4 — that
 * would be a group below the threshold, derived. Read across /api/stats, /api/cohorts,
 * /api/discrimination, /api/presence with /commons; and a hidden holder count in /api/equity and
 * the vitals wallet must not sit beside concentration figures that give it away.
 *
 * The population is built so that the old rules leaked: six agents who joined in September and two
 * in November (8 − 6 = 2), five humans who joined in October (a settled month between them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendImprint } from '../../../api/record/window.ts';
import { createSovereign } from '../../../api/identity/sovereigns.ts';
import { discriminationJob } from '../../../api/organism/checks/discrimination.ts';
import { K_ANONYMITY_THRESHOLD } from '../../../shared/boundaries/k-anonymity.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { imprintDraft } from '../../helpers/imprint-draft.ts';

type Figure = number | string;
interface Partition {
  measure: string;
  total: { source: string; value: Figure };
  groups: { source: string; values: Figure[] };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const agents = [
    ...[0, 1, 2, 3, 4, 5].map((i) => ({ handle: `september-${i}`, at: '2026-09-10T10:00:00.000Z' })),
    ...[0, 1].map((i) => ({ handle: `november-${i}`, at: '2026-11-03T10:00:00.000Z' })),
  ];
  for (const agent of agents) {
    await db.query(
      `insert into agents (handle, secret_hash, level, first_seen_at, last_seen_at) values ($1, 'x', 'arrived', $2, $2)`,
      [agent.handle, agent.at],
    );
    await db.transaction((tx) =>
      appendImprint(
        tx,
        imprintDraft({
          body: `a thought from ${agent.handle}`,
          authorRef: agent.handle,
          unattested: agent.handle.startsWith('november'),
          at: t.clock.now(),
        }),
      ),
    );
  }
  for (let i = 0; i < 5; i++) {
    const sovereign = await createSovereign(t.app.civitas, {});
    await db.query(`update sovereigns set created_at = '2026-10-15T10:00:00Z' where id = $1`, [sovereign.id]);
  }
  await db.query(
    `insert into treasury_patrons (holder_kind, holder_ref, public_ref, units, since) values ('sovereign', 'one-patron', 'abcd', 500, $1)`,
    [t.clock.now().toISOString()],
  );
  await discriminationJob(t.app.civitas);
}, 120_000);
afterAll(async () => t?.close());

const http = requests(() => t.app);
const get = async (url: string) => {
  const res = await http.get(url);
  expect(res.statusCode, url).toBe(200);
  return res.json();
};

/** Every sum of a subset of the exact figures (the lists here are short). */
function subsetSums(values: number[]): number[] {
  let sums = [0];
  for (const value of values) sums = [...sums, ...sums.map((sum) => sum + value)];
  return sums;
}

/** What a reader could derive below the threshold from one partition, said in words. */
function derivedSmallGroups(partition: Partition): string[] {
  const { total, groups } = partition;
  // An exact total under the threshold is itself published (the whole kind is that small): nothing is derived from it.
  const whole = total.value;
  if (typeof whole !== 'number' || whole < K_ANONYMITY_THRESHOLD) return [];
  const exact = groups.values.filter((value): value is number => typeof value === 'number');
  return subsetSums(exact)
    .map((sum) => whole - sum)
    .filter((rest) => rest > 0 && rest < K_ANONYMITY_THRESHOLD)
    .map((rest) => `${partition.measure}: ${total.source} minus groups of ${groups.source} leaves ${rest}`);
}

async function partitions(): Promise<Partition[]> {
  const [stats, cohorts, discrimination, presence, commons] = await Promise.all([
    get('/api/stats'),
    get('/api/cohorts'),
    get('/api/discrimination'),
    get('/api/presence'),
    get('/commons'),
  ]);
  const found: Partition[] = [];
  for (const [kind, plural] of [
    ['sovereign', 'humans'],
    ['agent', 'agents'],
  ] as const) {
    found.push({
      measure: `population of ${plural}`,
      total: { source: '/api/stats', value: stats[plural] },
      groups: {
        source: '/api/cohorts',
        values: cohorts.cohorts.map((c: Record<string, Figure>) => c[plural]),
      },
    });
    const byKind = discrimination.by_kind.find((g: { kind: string }) => g.kind === kind);
    const byCohort = discrimination.by_cohort.filter((g: { kind: string }) => g.kind === kind);
    if (byKind)
      found.push({
        measure: `${plural} who imprinted`,
        total: { source: '/api/discrimination by_kind', value: byKind.authors },
        groups: {
          source: '/api/discrimination by_cohort',
          values: byCohort.map((g: { authors: Figure }) => g.authors),
        },
      });
  }
  const here = commons.groups[0];
  found.push({
    measure: 'humans here now',
    total: { source: '/api/presence', value: presence.humans },
    groups: { source: '/commons', values: [here.listed.length, here.others] },
  });
  return found;
}

describe('k-anonymity against subtraction', () => {
  it('derives no group below 5 from any published total minus any sum of published groups', async () => {
    const found = await partitions();
    expect(found.length).toBeGreaterThanOrEqual(4);
    expect(found.flatMap(derivedSmallGroups)).toEqual([]);
  });

  it('the check itself finds a planted leak (8 agents, a published group of 6)', () => {
    const planted: Partition = {
      measure: 'agents',
      total: { source: 'total', value: 8 },
      groups: { source: 'groups', values: [6, 'fewer than 5'] },
    };
    expect(derivedSmallGroups(planted)).toEqual(['agents: total minus groups of groups leaves 2']);
  });

  it('shows no concentration figure beside a hidden holder count (/api/equity, the vitals wallet)', async () => {
    const equity = await get('/api/equity');
    const wallet = (await get('/api/vitals')).wallet;
    for (const view of [equity, wallet]) {
      expect(view.holders).toBe('fewer than 5');
      expect(view.top_holder_share).toBeNull(); // a share of 1 would say: one holder
      expect(view.gini).toBeNull();
    }
  });
});
