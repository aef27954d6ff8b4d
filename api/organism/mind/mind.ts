/**
 * The mind: the claims the service holds about itself are the truth claims
 * (api/organism/mind/truth.ts), each shown with its latest stored check and the stances signed-in
 * sovereigns took on it. Stance counts are k-anonymous (under 5 → "fewer than 5"); who took a
 * stance and the reasons given never leave. The Atom feed lists each claim's first check and
 * every change of its result.
 */
import { splitKey, talliesUnder } from '../../db/tallies.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { atomFeed } from '../../feeds.ts';
import type { AppContext } from '../../context.ts';
import type { CensusHost } from '../../boundaries/census.ts';
import { recordReceipt } from '../../ledger/receipts.ts';
import type { RouteRequest } from '../../route.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../../http.ts';
import { Refusal } from '../../../shared/errors.ts';
import { REASON_MAX, STANCES, type mindClaimSchema } from '../../../shared/organism/contract/mind.ts';
import type { z } from 'zod';
import { kAnonymousCount } from '../../../shared/boundaries/k-anonymity.ts';
import { TRUTH_CLAIMS, type ClaimName } from './truth.ts';
import { keptKnowledge } from '../checks/knowledge.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../../db/kysely.ts';

function known(claim: string): ClaimName {
  const def = TRUTH_CLAIMS.find((c) => c.claim === claim);
  if (!def)
    throw new Refusal(
      'not_found',
      { claims: '/api/mind' },
      `No mind claim is called ${claim}. The claims are listed at /api/mind.`,
    );
  return def.claim;
}

/** Each claim's latest check, as its tally keeps it. */
const storedChecks = (ctx: AppContext) =>
  ctx.db.kysely
    .selectFrom('truth_tallies')
    .select([
      'claim',
      'last_held as held',
      'last_evidence as evidence',
      fragment<string>`to_char(last_checked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
        'checked_at',
      ),
    ])
    .execute();
type StoredCheck = Awaited<ReturnType<typeof storedChecks>>[number];

/**
 * The latest check of each claim, from the tallies each verification round keeps (seven rows):
 * the round /api/truth shows. Before any round was kept, the first verification run happens
 * inline (keptKnowledge, whose census needs the host).
 */
export async function latestChecks(ctx: AppContext, host: CensusHost): Promise<Map<string, StoredCheck>> {
  const read = async () => new Map((await storedChecks(ctx)).map((row) => [row.claim, row]));
  const checks = await read();
  if (TRUTH_CLAIMS.every((def) => checks.has(def.claim))) return checks;
  await keptKnowledge(ctx, host);
  return read();
}

async function stanceCounts(ctx: AppContext): Promise<Map<string, Record<string, number>>> {
  // `mind_stances:<stance>:<claim>`, kept by triggers (migration 0086): no scan of every stance.
  const out = new Map<string, Record<string, number>>();
  for (const { key, value } of await talliesUnder(ctx.db, 'mind_stances:')) {
    const [stance, claim] = splitKey(key);
    const counts = out.get(claim) ?? {};
    counts[stance] = value;
    out.set(claim, counts);
  }
  return out;
}

function claimView(
  def: (typeof TRUTH_CLAIMS)[number],
  check: StoredCheck | undefined,
  counts: Record<string, number> = {},
) {
  const total = STANCES.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
  return {
    id: def.claim,
    statement: def.statement,
    check: check
      ? { held: Boolean(check.held), evidence: check.evidence, checked_at: check.checked_at }
      : null,
    stances: {
      agree: kAnonymousCount(counts.agree ?? 0),
      disagree: kAnonymousCount(counts.disagree ?? 0),
      unsure: kAnonymousCount(counts.unsure ?? 0),
      // Stances are one kind of participant (sovereigns): this total sums stances, never kinds.
      taken: kAnonymousCount(total),
    },
    links: { page: `/mind/claim/${def.claim}`, truth: '/api/truth', trust: '/api/trust' },
  };
}

const RULE =
  "Claims are the service's own statements about itself, each checked against stored data (the latest round the verification job kept, every minute). " +
  'Signed-in sovereigns take one stance per claim (a new one replaces the old); counts under 5 read "fewer than 5"; who took a stance and the reasons given are never published.';

/** The query is the contract's (shared/organism/contract/mind.ts): a well-formed claim id or none. */
export async function mindView(ctx: AppContext, host: CensusHost, input: { claim?: string }) {
  if (input.claim !== undefined) {
    const claim = known(input.claim);
    const [checks, counts] = await Promise.all([latestChecks(ctx, host), stanceCounts(ctx)]);
    const def = TRUTH_CLAIMS.find((c) => c.claim === claim)!;
    return {
      ok: true as const,
      schema: 'civitas.mind.claim.v1' as const,
      as_of: ctx.clock.now().toISOString(),
      claim: claimView(def, checks.get(claim), counts.get(claim)),
      changes: (await claimChanges(ctx, claim)).slice(0, 20),
      rule: RULE,
    };
  }
  const [checks, counts] = await Promise.all([latestChecks(ctx, host), stanceCounts(ctx)]);
  const claims = TRUTH_CLAIMS.map((def) => claimView(def, checks.get(def.claim), counts.get(def.claim)));
  return {
    ok: true as const,
    schema: 'civitas.mind.v1' as const,
    as_of: ctx.clock.now().toISOString(),
    count: claims.length,
    held: claims.filter((c) => c.check?.held === true).length,
    claims,
    stance: {
      method: 'POST' as const,
      path: '/api/mind/stance',
      fields: { claim: 'a claim id', stance: STANCES.join(' | '), reason: `1..${REASON_MAX} characters` },
      needs: 'a signed-in sovereign',
    },
    feed: '/mind/feed.xml',
    rule: RULE,
  };
}

type Change = z.infer<typeof mindClaimSchema>['changes'][number];

/** Each claim's first check and every check whose result differs from the one before, newest first. */
async function claimChanges(ctx: AppContext, claim?: string): Promise<Change[]> {
  // Each check says what it changed as it is written (migration 0077): the changed rows alone, newest first.
  const rows = await ctx.db.kysely
    .selectFrom('truth_checks')
    .select([
      'id',
      'claim',
      'held',
      'evidence',
      fragment<Change['kind']>`change`.as('change'),
      fragment<string>`to_char(checked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('at'),
    ])
    .where('change', 'is not', null)
    .$if(claim !== undefined, (q) => q.where('claim', '=', claim!))
    .orderBy('checked_at', 'desc')
    .orderBy('id', 'desc')
    .limit(constant(50))
    .execute();
  return rows.map((row) => ({
    claim: row.claim,
    held: Boolean(row.held),
    evidence: row.evidence,
    at: row.at,
    kind: row.change,
  }));
}

export async function mindFeed(request: FastifyRequest, reply: FastifyReply) {
  const ctx = request.server.civitas;
  const origin = ctx.config.origin;
  const changes = await claimChanges(ctx);
  const statements = new Map<string, string>(TRUTH_CLAIMS.map((c) => [c.claim, c.statement]));
  const feed = atomFeed(ctx, {
    title: 'civitas — mind claims',
    description:
      "The claims civitas holds about itself: each claim's first check and every change in whether it holds.",
    id: `${origin}/mind/feed.xml`,
    link: `${origin}/mind`,
    updated: new Date(changes[0]?.at ?? ctx.clock.now().toISOString()),
    copyright: 'Public record of civitas',
    feedLinks: { atom: `${origin}/mind/feed.xml` },
  });
  for (const change of changes) {
    const verb =
      change.kind === 'first_check'
        ? change.held
          ? 'first checked: holds'
          : 'first checked: does not hold'
        : change.kind === 'now_holds'
          ? 'holds again'
          : 'no longer holds';
    feed.addItem({
      title: `${change.claim} ${verb}`,
      id: `${origin}/mind/claim/${change.claim}#${change.at}`,
      link: `${origin}/mind/claim/${change.claim}`,
      date: new Date(change.at),
      description: `${statements.get(change.claim) ?? change.claim} — ${change.evidence}`,
    });
  }
  reply.header('content-type', 'application/atom+xml; charset=utf-8');
  // Opt in to the readable stylesheet (GET /feed.xsl) right after the XML declaration.
  return feed.atom1().replace(/^(<\?xml[^>]*\?>)/, '$1\n<?xml-stylesheet type="text/xsl" href="/feed.xsl"?>');
}

/**
 * POST /api/mind/stance is unscoped in the registry, so the door requires a session itself, before
 * the router parses the body: a stranger hears 401 whatever it sent. This is its one check; the
 * handler reads the session it let through.
 */
export function stanceNeedsSession(request: FastifyRequest) {
  if (!request.sovereign)
    throw new Refusal(
      'identity_required',
      {},
      'Sign in as a sovereign (cross at /initiate or return at /return) to take a stance on a mind claim.',
    );
}

/** POST /api/mind/stance: the body is the contract's, already parsed (shared/organism/contract/mind.ts). */
export async function takeStance(request: RouteRequest<'POST /api/mind/stance'>, reply: FastifyReply) {
  // Its preHandler (stanceNeedsSession) refused a request without a session before the body was read.
  const who = request.sovereign!;
  const input = request.input.body;
  const claim = known(input.claim);
  const next = isFormPost(request) ? returnTarget(input.return_to, `/mind/claim/${claim}`) : null;
  const ctx = request.server.civitas;
  const at = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    const receipt = await recordReceipt(tx, { step: 'organism.mind.stance', subject: `mind:${claim}`, at });
    const [row] = await tx.kysely
      .insertInto('mind_stances')
      .values({
        claim,
        sovereign_id: who.sovereignId,
        stance: input.stance,
        reason: input.reason,
        taken_at: at.toISOString(),
        receipt_id: receipt.id,
      })
      .onConflict((oc) =>
        oc.columns(['claim', 'sovereign_id']).doUpdateSet((eb) => ({
          stance: eb.ref('excluded.stance'),
          reason: eb.ref('excluded.reason'),
          taken_at: eb.ref('excluded.taken_at'),
          receipt_id: eb.ref('excluded.receipt_id'),
        })),
      )
      // A row that existed is updated in place: its xmax is the updating transaction's.
      .returning(fragment<boolean>`(xmax <> 0)`.as('replaced'))
      .execute();
    return { receipt, replaced: Boolean(row?.replaced) };
  });
  if (next) return seeOther(reply, withQuery(next, { stance: 'taken' }));
  return {
    ok: true as const,
    claim,
    stance: input.stance,
    replaced: result.replaced,
    taken_at: at.toISOString(),
    receipt: {
      id: result.receipt.id,
      step: result.receipt.step,
      subject: result.receipt.subject,
      recorded_at: result.receipt.recorded_at,
    },
    links: { claim: `/mind/claim/${claim}`, receipt: `/api/receipt/${result.receipt.id}` },
  };
}
