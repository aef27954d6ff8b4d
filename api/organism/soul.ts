/**
 * GET /api/soul: the service's purpose and its commitments — the founding axioms — each with the
 * live evidence that it holds, where stored data can show it. An axiom with no check of its own
 * says so (`holds: null`), never assumed. A check that fails to run is projected through
 * projectFailure (lane `soul`): the runtime's own words never leave.
 */
import type { FastifyInstance } from 'fastify';
import { AXIOMS } from '../../shared/governance/axioms.ts';
import { FEWER_THAN_K, kAnonymousCount } from '../../shared/boundaries/k-anonymity.ts';
import { projectFailure } from '../../shared/boundaries/projectors/failures.ts';
import { latestChecks } from './mind.ts';
import { stateProjection } from './state.ts';

export const PURPOSE =
  'civitas keeps a public Record that humans and agents write to, proves every step it takes with a receipt anyone can verify, and checks itself against its own commitments in public.';

interface Evidence { holds: boolean | null; evidence: string; source: string | null }

type Check = (app: FastifyInstance, truths: Map<string, { held: boolean; evidence: string; checked_at: string }>) => Promise<Evidence>;

const fromTruth = (claim: string): Check => async (_app, truths) => {
  const check = truths.get(claim);
  if (!check) return { holds: null, evidence: 'Not checked yet.', source: '/api/truth' };
  return { holds: Boolean(check.held), evidence: `${check.evidence} (checked ${check.checked_at})`, source: `/mind/claim/${claim}` };
};

const CHECKS: Record<string, { name: string; check: Check | null; note?: string }> = {
  'axiom-1': { name: 'identifiers_grant_nothing', check: null, note: 'Upheld by construction: routes take authority from sessions and credentials the router checks; no stored figure shows it.' },
  'axiom-2': { name: 'receipts_verify', check: fromTruth('anchor_chain_verifies') },
  'axiom-3': { name: 'boundaries_bound', check: fromTruth('all_boundaries_bound') },
  'axiom-4': { name: 'window_bounded', check: fromTruth('window_bounded') },
  'axiom-5': {
    name: 'kinds_never_summed',
    check: async (app) => {
      const state = await stateProjection(app.civitas);
      const keys = Object.keys(state.population).sort();
      const holds = keys.join(',') === 'agents,humans,note';
      return { holds, evidence: holds ? `The live population reads humans ${state.population.humans} and agents ${state.population.agents}, with no total.` : 'The live population carries a figure other than humans and agents.', source: '/api/state' };
    },
  },
  'axiom-6': {
    name: 'small_groups_hidden',
    check: async () => {
      const holds = kAnonymousCount(1) === FEWER_THAN_K && kAnonymousCount(4) === FEWER_THAN_K && kAnonymousCount(5) === 5;
      return { holds, evidence: holds ? `The shared k-anonymity rule answers "${FEWER_THAN_K}" for 1 and 4 and the count for 5.` : 'The shared k-anonymity rule does not hide groups under 5.', source: '/api/discrimination' };
    },
  },
  'axiom-7': {
    name: 'articles_ratified_in_public',
    check: async (app) => {
      const [row] = await app.civitas.db.query<{ articles: string | number; short: string | number }>(
        `select count(*) as articles,
                count(*) filter (where (select count(*) from governance_cosigns c where c.proposal_id = a.proposal_id) < 3
                                    or (select count(*) from governance_ratifications r where r.proposal_id = a.proposal_id) < 2) as short
           from governance_articles a`,
      );
      const articles = Number(row.articles);
      const short = Number(row.short);
      return { holds: short === 0, evidence: short === 0 ? `${articles} ratified article(s), each with at least 3 cosigns and 2 ratifications on record.` : `${short} of ${articles} article(s) lack the cosigns or ratifications on record.`, source: '/api/constitution' };
    },
  },
  'axiom-8': { name: 'quotes_never_charge', check: null, note: 'Upheld by construction: a paid door without entitlement answers 402 with a quote; no stored figure shows it.' },
};

export async function soulProjection(app: FastifyInstance) {
  const truths = await latestChecks(app).catch(() => new Map());
  const commitments = [];
  for (const axiom of AXIOMS) {
    const def = CHECKS[axiom.id] ?? { name: axiom.id, check: null, note: 'No check is defined for this axiom.' };
    let result: Evidence & { failure?: ReturnType<typeof projectFailure> };
    if (!def.check) {
      result = { holds: null, evidence: def.note ?? 'No check.', source: null };
    } else {
      try {
        result = await def.check(app, truths);
      } catch (error) {
        // failure_projection: only the catalog's words and the lane leave.
        result = { holds: false, evidence: 'The check could not run to the end; it counts as not holding.', source: null, failure: projectFailure({ lane: 'soul', external: false, message: String((error as Error)?.message ?? error) }) };
      }
    }
    commitments.push({ axiom: axiom.id, title: axiom.title, text: axiom.text, check: def.name, holds: result.holds, evidence: result.evidence, source: result.source, ...(result.failure ? { failure: result.failure } : {}) });
  }
  return {
    ok: true as const,
    schema: 'civitas.soul.v1',
    as_of: app.civitas.clock.now().toISOString(),
    purpose: PURPOSE,
    holding: commitments.filter((c) => c.holds === true).length,
    not_holding: commitments.filter((c) => c.holds === false).length,
    unchecked: commitments.filter((c) => c.holds === null).length,
    commitments,
    rule: 'Each commitment is a founding axiom (/api/axioms) with the live evidence for it, where stored data can show it. Unchecked is not the same as holding.',
  };
}
