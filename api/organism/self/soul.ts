/**
 * GET /api/soul: the service's purpose and its commitments — the founding axioms — each with the
 * live evidence that it holds, where stored data can show it. An axiom no stored row could break
 * is structural: it says so (`structural: true`, `holds: null`) and is never counted as holding. A check that fails to run is projected through
 * projectFailure (lane `soul`): the runtime's own words never leave.
 */
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import { AXIOMS } from '../../../shared/governance/axioms.ts';
import { count, noun } from '../../../shared/plural.ts';
import { projectFailure } from '../../../shared/boundaries/projectors/failures.ts';
import { latestChecks } from '../mind/mind.ts';
import { one, type Counts } from '../../db/rows.ts';

export const PURPOSE =
  'civitas keeps a public Record that humans and agents write to, proves every step it takes with a receipt anyone can verify, and checks itself against its own commitments in public.';

interface Evidence {
  holds: boolean | null;
  evidence: string;
  source: string | null;
}

type Check = (
  ctx: AppContext,
  truths: Map<string, { held: boolean; evidence: string; checked_at: string }>,
) => Promise<Evidence>;

const fromTruth =
  (claim: string): Check =>
  async (_ctx, truths) => {
    const check = truths.get(claim);
    if (!check) return { holds: null, evidence: 'Not checked yet.', source: '/api/truth' };
    return {
      holds: Boolean(check.held),
      evidence: `${check.evidence} (checked ${check.checked_at})`,
      source: `/mind/claim/${claim}`,
    };
  };

const CHECKS: Record<string, { name: string; check: Check | null; structural?: boolean; note?: string }> = {
  'axiom-1': {
    name: 'identifiers_grant_nothing',
    check: null,
    structural: true,
    note: 'Structural: routes take authority from sessions and credentials the router checks; no stored figure shows it.',
  },
  'axiom-2': { name: 'receipts_verify', check: fromTruth('anchor_chain_verifies') },
  'axiom-3': { name: 'boundaries_bound', check: fromTruth('all_boundaries_bound') },
  'axiom-4': { name: 'window_bounded', check: fromTruth('window_bounded') },
  // Axioms 5 and 6 are kept by the shape of every projection (population has humans and agents and
  // no total; kAnonymousCount is the one rule for small groups): no stored row could make them fail,
  // so they are structural and not counted as holding.
  'axiom-5': {
    name: 'kinds_never_summed',
    check: null,
    structural: true,
    note: 'Structural: every population projection carries humans and agents apart and has no total field; no stored figure could show otherwise.',
  },
  'axiom-6': {
    name: 'small_groups_hidden',
    check: null,
    structural: true,
    note: 'Structural: every published group count passes the one k-anonymity rule (fewer than 5 reads "fewer than 5"); no stored figure could show otherwise.',
  },
  'axiom-7': {
    name: 'articles_ratified_in_public',
    check: async (ctx) => {
      const row = one(
        // Raw: a count filtered by two correlated counts, clearer as the SQL it is.
        await ctx.db.query<Counts<'articles' | 'short'>>(
          `select count(*) as articles,
                count(*) filter (where (select count(*) from governance_cosigns c where c.proposal_id = a.proposal_id) < 3
                                    or (select count(*) from governance_ratifications r where r.proposal_id = a.proposal_id) < 2) as short
           from governance_articles a`,
        ),
      );
      const articles = row.articles;
      const short = row.short;
      return {
        holds: short === 0,
        evidence:
          short === 0
            ? `${count(articles, 'ratified article', 'ratified articles')}, each with at least 3 cosigns and 2 ratifications on record.`
            : `${short} of ${count(articles, 'article', 'articles')} ${noun(short, 'lacks', 'lack')} the cosigns or ratifications on record.`,
        source: '/api/constitution',
      };
    },
  },
  'axiom-8': {
    name: 'quotes_never_charge',
    check: null,
    structural: true,
    note: 'Structural: a paid door without entitlement answers 402 with a quote; no stored figure shows it.',
  },
};

/** The host is for a first verification run when no round was kept yet (latestChecks). */
export async function soulView(ctx: AppContext, host: CensusHost) {
  const truths = await latestChecks(ctx, host).catch(() => new Map());
  const commitments = [];
  for (const axiom of AXIOMS) {
    const def = CHECKS[axiom.id] ?? {
      name: axiom.id,
      check: null,
      note: 'No check is defined for this axiom.',
    };
    let result: Evidence & { failure?: ReturnType<typeof projectFailure> };
    if (!def.check) {
      result = { holds: null, evidence: def.note ?? 'No check.', source: null };
    } else {
      try {
        result = await def.check(ctx, truths);
      } catch (error) {
        // failure_projection: only the catalog's words and the lane leave.
        result = {
          holds: false,
          evidence: 'The check could not run to the end; it counts as not holding.',
          source: null,
          failure: projectFailure({
            lane: 'soul',
            external: false,
            message: String((error as Error)?.message ?? error),
          }),
        };
      }
    }
    commitments.push({
      axiom: axiom.id,
      title: axiom.title,
      text: axiom.text,
      check: def.name,
      structural: def.structural === true,
      holds: result.holds,
      evidence: result.evidence,
      source: result.source,
      ...(result.failure ? { failure: result.failure } : {}),
    });
  }
  return {
    ok: true as const,
    schema: 'civitas.soul.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    purpose: PURPOSE,
    holding: commitments.filter((c) => c.holds === true).length,
    not_holding: commitments.filter((c) => c.holds === false).length,
    unchecked: commitments.filter((c) => c.holds === null && !c.structural).length,
    structural: commitments.filter((c) => c.structural).length,
    commitments,
    rule: 'Each commitment is a founding axiom (/api/axioms) with the live evidence for it, where stored data can show it. A structural commitment is kept by the shape of the code, not by anything stored: it reads holds null and is never counted as holding. Unchecked is not the same as holding.',
  };
}
