/**
 * GET /api/drift: week-over-week divergence of imprint kinds (Jensen–Shannon, base 2: 0 = the same
 * distribution, 1 = disjoint) and of topics (the top terms of learnable retained bodies, ts_stat).
 * Held imprints are left out of the kind counts (their kind is not a fact the gate let in).
 */
import type { AppContext } from '../../context.ts';
import { IMPRINT_KINDS } from '../../../shared/record/imprint.ts';
import { DAY } from '../vitals/vitals.ts';
import { learnableBodies, termsBetween, type TermCount } from './terms.ts';
import { countBetween, shownKind } from '../self/tallies.ts';

export const WEEK = 7 * DAY;
const TOP_TERMS = 15;

/** Jensen–Shannon divergence (bits) of two count vectors over the same keys; null when either is empty. */
export function jensenShannon(p: number[], q: number[]): number | null {
  const sp = p.reduce((a, b) => a + b, 0);
  const sq = q.reduce((a, b) => a + b, 0);
  if (sp === 0 || sq === 0) return null;
  let js = 0;
  // p and q count the same keys: i < p.length === q.length.
  for (let i = 0; i < p.length; i++) {
    const a = p[i]! / sp;
    const b = q[i]! / sq;
    const m = (a + b) / 2;
    if (a > 0) js += 0.5 * a * Math.log2(a / m);
    if (b > 0) js += 0.5 * b * Math.log2(b / m);
  }
  return Math.round(Math.min(1, Math.max(0, js)) * 10_000) / 10_000;
}

/** Not-held imprints by kind created in [from, to): the tallies the imprints' statements keep (self/tallies.ts). */
async function kindCounts(ctx: AppContext, from: Date, to: Date): Promise<Record<string, number>> {
  const counted = await countBetween(ctx.db, IMPRINT_KINDS.map(shownKind), from, to);
  return Object.fromEntries(IMPRINT_KINDS.map((kind) => [kind, counted.get(shownKind(kind)) ?? 0]));
}

function termDivergence(current: TermCount[], previous: TermCount[]): number | null {
  const keys = [...new Set([...current, ...previous].map((t) => t.term))];
  const of = (list: TermCount[]) => keys.map((key) => list.find((t) => t.term === key)?.documents ?? 0);
  return jensenShannon(of(current), of(previous));
}

/** The two weeks' kinds and top terms, with the divergences and the rising terms (the organism's drift block). */
async function weeks(ctx: AppContext, now: Date, weekStart: Date, previousStart: Date) {
  const [thisKinds, lastKinds, thisTerms, lastTerms] = await Promise.all([
    kindCounts(ctx, weekStart, now),
    kindCounts(ctx, previousStart, weekStart),
    termsBetween(ctx.db, weekStart, now, TOP_TERMS),
    termsBetween(ctx.db, previousStart, weekStart, TOP_TERMS),
  ]);
  const keys = [...new Set([...Object.keys(thisKinds), ...Object.keys(lastKinds)])];
  const kindsDivergence = jensenShannon(
    keys.map((k) => thisKinds[k] ?? 0),
    keys.map((k) => lastKinds[k] ?? 0),
  );
  const previousSet = new Set(lastTerms.map((t) => t.term));
  return {
    thisKinds,
    lastKinds,
    thisTerms,
    lastTerms,
    kindsDivergence,
    topicsDivergence: termDivergence(thisTerms, lastTerms),
    rising: thisTerms.filter((t) => !previousSet.has(t.term)).map((t) => t.term),
  };
}

/** What /api/organism shows of the drift: the two divergences and the rising terms (no body counts). */
export async function driftSummary(ctx: AppContext) {
  const now = ctx.clock.now();
  const w = await weeks(ctx, now, new Date(now.getTime() - WEEK), new Date(now.getTime() - 2 * WEEK));
  return { kinds_divergence: w.kindsDivergence, topics_divergence: w.topicsDivergence, rising: w.rising };
}

export async function driftView(ctx: AppContext) {
  const now = ctx.clock.now();
  const weekStart = new Date(now.getTime() - WEEK);
  const previousStart = new Date(now.getTime() - 2 * WEEK);
  const [w, thisBodies, lastBodies] = await Promise.all([
    weeks(ctx, now, weekStart, previousStart),
    learnableBodies(ctx.db, weekStart, now),
    learnableBodies(ctx.db, previousStart, weekStart),
  ]);
  const { thisKinds, lastKinds, thisTerms, lastTerms } = w;
  const currentSet = new Set(thisTerms.map((t) => t.term));
  return {
    ok: true as const,
    schema: 'civitas.drift.v1' as const,
    as_of: now.toISOString(),
    this_week: {
      from: weekStart.toISOString(),
      to: now.toISOString(),
      kinds: thisKinds,
      imprints: Object.values(thisKinds).reduce((a, b) => a + b, 0),
    },
    last_week: {
      from: previousStart.toISOString(),
      to: weekStart.toISOString(),
      kinds: lastKinds,
      imprints: Object.values(lastKinds).reduce((a, b) => a + b, 0),
    },
    kinds: {
      divergence: w.kindsDivergence,
      measure:
        "Jensen–Shannon divergence in bits between the two weeks' kind distributions (0 = identical, 1 = disjoint); null when a week has no imprints.",
    },
    topics: {
      divergence: w.topicsDivergence,
      this_week: { bodies: thisBodies, terms: thisTerms },
      last_week: { bodies: lastBodies, terms: lastTerms },
      rising: w.rising,
      fading: lastTerms.filter((t) => !currentSet.has(t.term)).map((t) => t.term),
      basis: `ts_stat over the stored search vectors of retained bodies that are neither held nor quarantined (unattested); top ${TOP_TERMS} words of 4+ letters by number of imprints. Bodies that left the window no longer count.`,
    },
  };
}
