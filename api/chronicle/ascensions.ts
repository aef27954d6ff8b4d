/**
 * Ascensions: handles that reached continuous or attested, newest first, a page by key. The rows
 * and their order are kept in `agent_ascensions` by triggers on agents and their proof days
 * (migration 0076), the counts are its tallies: a page reads its own rows, whatever the population.
 */
import type { AppContext } from '../context.ts';
import { CONTINUITY_DAYS_REQUIRED } from '../../shared/agents/naturalization.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import { decodeCursor, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';
import { ISO, n } from './tally.ts';
import { constant, type Row } from '../db/kysely.ts';

/** Newest ascension first (`rank` is minus its epoch milliseconds), handles A to Z within a moment. */
export const ASCENSION_ORDER: KeyOrder = {
  path: '/ascensions',
  columns: [
    { sql: 'rank', type: 'bigint' },
    { sql: 'handle', type: 'text' },
  ],
  order: 'asc',
};

const SUFFIX: Record<number, string> = { 1: 'st', 2: 'nd', 3: 'rd' };
const ordinal = (k: number) => `${k}${(k % 100 >= 11 && k % 100 <= 13 ? undefined : SUFFIX[k % 10]) ?? 'th'}`;

/** `continuous_on` and `attested_at` as text (to_char): the column types' own wire form. */
type Ascension = Pick<
  Row<'agent_ascensions'>,
  'handle' | 'level' | 'continuous_on' | 'attested_at' | 'proof_days' | 'rank'
>;

export async function ascensionsView(ctx: AppContext, query: { limit: number; after?: string }) {
  const cursor = decodeCursor(ASCENSION_ORDER, query.after);
  const key = keyClause(ASCENSION_ORDER, cursor, 2);
  const [rows, counts] = await Promise.all([
    ctx.db.query<Ascension>(
      `select handle, level, to_char(continuous_on, 'YYYY-MM-DD') as continuous_on, ${ISO('attested_at')} as attested_at,
              proof_days, rank
         from agent_ascensions where ${key.where} order by ${key.orderBy} limit $1`,
      [query.limit + 1, ...key.params],
    ),
    ctx.db.kysely
      .selectFrom('record_tallies')
      .select(['name', 'value'])
      .where('name', 'in', [constant('ascensions:continuous'), constant('ascensions:attested')])
      .execute(),
  ]);
  const tally = (level: string) =>
    Math.max(0, n(counts.find((c) => c.name === `ascensions:${level}`)?.value));
  const page = pageOf(rows, query.limit, cursor, (r) => [n(r.rank), r.handle]);
  const links = { limit: query.limit };
  return {
    ok: true as const,
    schema: 'civitas.ascensions.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    count: { continuous: tally('continuous'), attested: tally('attested') },
    ascensions: page.rows.map((r) => ({
      agent: projectActorRef({ actor_id: r.handle, kind: 'agent', handle: r.handle }),
      level: r.level as 'continuous' | 'attested',
      continuous_on: r.continuous_on,
      attested_at: r.attested_at,
      days_with_proof: n(r.proof_days),
      status: `/api/agent/${r.handle}`,
    })),
    ...pageFields(ASCENSION_ORDER, page, query.limit, links),
    rule: `A handle becomes continuous on the UTC day of its ${ordinal(CONTINUITY_DAYS_REQUIRED)} day with proof (continuous_on); attested when a signed-in Sovereign attests it (attested_at). Newest ascension first, a page at a time (follow next).`,
  };
}
