/**
 * The spam gate (DESIGN.md section 3): rule-based, deterministic, no I/O. The API hands in the
 * facts it read (the author's recent bodies still in the window, how many imprints the author made
 * in the burst window); the gate answers hold or pass with one rule. Held bodies never leave: the
 * public only ever sees counts and the rule's fixed wording (projectHeldSpam).
 */
import type { HoldRule } from '../boundaries/projectors/spam.ts';

/** More than this many imprints by one author within BURST_WINDOW_MS are held. */
export const BURST_LIMIT = 12;
export const BURST_WINDOW_MS = 60_000;
/** Links allowed before density counts: at most 3, and links may not be most of the text. */
export const MAX_LINKS = 3;

/** Known spam patterns (case-insensitive). Kept short and obvious on purpose: a gate, not a judge. */
export const BAD_PATTERNS: readonly RegExp[] = [
  /\b(buy|order)\s+(cheap\s+)?(viagra|cialis|followers|likes)\b/i,
  /\bcasino\s+bonus\b/i,
  /\b(crypto|bitcoin|btc|eth)\s+(giveaway|doubler)\b/i,
  /\bsend\s+\d+(\.\d+)?\s*(btc|eth)\b/i,
  /\bearn\s+\$?\d[\d,]*\s*(per|a)\s*(day|hour|week)\b/i,
  /\bclick\s+here\s+to\s+(claim|win)\b/i,
  /\bfree\s+(money|iphone|gift\s*card)\b/i,
];

const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;

export interface GateFacts {
  body: string;
  /** Bodies of the author's own imprints still retained in the window (newest first). */
  recentBodies: readonly string[];
  /** Imprints by the same author within the last BURST_WINDOW_MS, not counting this one. */
  recentCount: number;
}

export type GateVerdict = { held: false } | { held: true; rule: HoldRule };

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Link density: more than MAX_LINKS links, or links making up over half of the characters. */
export function linkDensity(body: string): boolean {
  const links = body.match(LINK) ?? [];
  if (links.length > MAX_LINKS) return true;
  const linkChars = links.reduce((sum, link) => sum + link.length, 0);
  return links.length > 0 && linkChars / Math.max(1, body.trim().length) > 0.5 && body.trim().length > 40;
}

/** Repetition: the same text again from the same author, or one word said over and over. */
export function repetition(body: string, recentBodies: readonly string[]): boolean {
  const mine = normalise(body);
  if (recentBodies.some((other) => normalise(other) === mine)) return true;
  const words = mine.split(' ').filter(Boolean);
  if (words.length >= 12) {
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    const top = Math.max(...counts.values());
    if (top / words.length > 0.6) return true;
  }
  return /(.{1,8}?)\1{24,}/s.test(mine);
}

export function badPattern(body: string): boolean {
  return BAD_PATTERNS.some((pattern) => pattern.test(body));
}

/** The gate, in a fixed order: bursts first (cheapest to explain), then patterns, links, repetition. */
export function gate(facts: GateFacts): GateVerdict {
  if (facts.recentCount >= BURST_LIMIT) return { held: true, rule: 'burst' };
  if (badPattern(facts.body)) return { held: true, rule: 'bad_pattern' };
  if (linkDensity(facts.body)) return { held: true, rule: 'link_density' };
  if (repetition(facts.body, facts.recentBodies)) return { held: true, rule: 'repetition' };
  return { held: false };
}

/**
 * The gate for an author's first imprint: no recent bodies, no burst. It needs no query, so the
 * agent door knows it before the lock step that inserts a new handle (api/agents/agent-imprint.ts).
 */
export function gateFirst(body: string): GateVerdict {
  return gate({ body, recentBodies: [], recentCount: 0 });
}
