import type { AppContext } from '../context.ts';
import type { Counts, RowOf } from '../db/rows.ts';
import type { Proposal } from './entities.ts';
import { kAnonymousCount } from '../../shared/boundaries/k-anonymity.ts';
import { RATIFICATIONS_REQUIRED } from '../../shared/governance/rules.ts';
import { decodeCursor, instantKey, keyClause, pageFields, pageOf, type KeyOrder } from '../paging.ts';

/**
 * Abstentions in ratifications, derived from stored facts only: a sovereign abstained on a
 * proposal open to ratification when they held a uniqueness receipt (could ratify), were not its
 * proposer and did not ratify it — counted until the proposal was ratified (final) or until now
 * (so far). Counts are k-anonymous (fewer than 5 reads "fewer than 5"). Court verdicts have no
 * fixed panel, so not signing one is not counted as abstaining (docs/governance.md).
 */
/**
 * The proposals open to or past ratification, newest cosigned first, a page at a time: keyed on
 * when each was cosigned, then its id, along governance_proposals_ratification (migration 0075).
 */
export const ABSTENTION_ORDER: KeyOrder = {
  path: '/api/abstentions',
  columns: [
    { sql: 'p.cosigned_at', type: 'timestamptz' },
    { sql: 'p.id', type: 'text' },
  ],
  order: 'desc',
};

export async function abstentionsView(ctx: AppContext, query: { limit: number; after?: string }) {
  const now = ctx.clock.now().toISOString();
  const cursor = decodeCursor(ABSTENTION_ORDER, query.after);
  const key = keyClause(ABSTENTION_ORDER, cursor, 3);
  // Flat (issue 20, migration 0075): a ratified proposal's count is kept on it; an open one's is the
  // tally of sovereigns who can ratify, less any verified after now (an index range, empty in the
  // ordinary course), less its proposer (one row by key). Ratifications: a proposal's own rows.
  const rows = await ctx.db.query<
    Pick<RowOf<typeof Proposal>, 'id' | 'title' | 'state' | 'cosigned_at' | 'ratified_at'> &
      Counts<'eligible' | 'ratified'> & { cosigned_key: string }
  >(
    `with now_ratifiers as (
       select coalesce((select value from record_tallies where name = 'sovereigns_ratifiers'), 0)
            - (select count(*) from sovereigns s where s.uniqueness_verified_at > $1::timestamptz and s.erased_at is null) as n)
     select p.id, p.title, p.state, p.cosigned_at, p.ratified_at, ${instantKey('p.cosigned_at')} as cosigned_key,
            case when p.ratified_at is not null then p.eligible_ratifiers
                 else (select n from now_ratifiers)
                    - (select count(*) from sovereigns s where s.id = p.proposer_id and s.erased_at is null
                          and s.uniqueness_verified_at <= $1::timestamptz) end as eligible,
            (select count(*) from governance_ratifications r where r.proposal_id = p.id) as ratified
       from governance_proposals p
      where p.state in ('cosigned', 'ratified') and ${key.where}
      order by ${key.orderBy}
      limit $2`,
    [now, query.limit + 1, ...key.params],
  );
  const page = pageOf(rows, query.limit, cursor, (r) => [r.cosigned_key, r.id]);
  const proposals = page.rows.map((r) => {
    const eligible = r.eligible;
    const ratified = r.ratified;
    const abstained = Math.max(0, eligible - ratified);
    return {
      id: r.id,
      title: r.title,
      state: r.state,
      final: r.state === 'ratified',
      ratifications: ratified,
      ratifications_required: RATIFICATIONS_REQUIRED,
      eligible_ratifiers: kAnonymousCount(eligible),
      abstentions: kAnonymousCount(abstained),
    };
  });
  return {
    ok: true as const,
    schema: 'civitas.abstentions.v1' as const,
    definition:
      'An abstention is a sovereign who could ratify (a stored human-uniqueness receipt, not the proposer) and did not, while the proposal was open to ratification. Counts below 5 read "fewer than 5".',
    quorum: `A proposal needs ${RATIFICATIONS_REQUIRED} ratifications; abstentions neither block nor count toward it.`,
    ratifications: proposals,
    ...pageFields(ABSTENTION_ORDER, page, query.limit, { limit: query.limit }),
    verdicts: {
      available: false as const,
      note: 'Verdict abstentions are not counted: a court case has no fixed panel (any sovereign with governance standing but its opener may sit as a juror, and 3 concurring signatures close it), so not signing is not abstaining. Signed verdicts and dissents are at /verdicts and /dissent.',
    },
  };
}
