/**
 * The shape of a seeded Record: sizes from the command line and the deterministic choices made
 * from them (who writes, when, what is held). Pure: no I/O.
 */
export interface SeedSize {
  imprints: number;
  days: number;
  agents: number;
  sovereigns: number;
  /** door actions (prophecies, pacts, orders, proposals, cases…) per simulated day */
  actionsPerDay: number;
}

export const DEFAULT_SIZE: SeedSize = {
  imprints: 20_000,
  days: 60,
  agents: 2_000,
  sovereigns: 400,
  actionsPerDay: 2,
};

const FLAGS: Record<string, keyof SeedSize> = {
  '--imprints': 'imprints',
  '--days': 'days',
  '--agents': 'agents',
  '--sovereigns': 'sovereigns',
  '--actions-per-day': 'actionsPerDay',
};

/** `--imprints 1000000 --days 60 --agents 100000 --sovereigns 20000` → a size; unknown flags are refused. */
export function parseSize(argv: readonly string[]): SeedSize {
  const size = { ...DEFAULT_SIZE };
  for (let i = 0; i < argv.length; i += 2) {
    const key = FLAGS[argv[i]!]; // i < argv.length
    const value = Number(argv[i + 1]);
    if (!key || !Number.isInteger(value) || value < 0) {
      throw new Error(
        `usage: seed:scale -- ${Object.keys(FLAGS).join(' N ')} N (got ${argv[i]} ${argv[i + 1]})`,
      );
    }
    size[key] = value;
  }
  if (size.days < 2) throw new Error('--days must be at least 2 (one sealed day and the open one)');
  if (size.agents < size.days || size.sovereigns < 12)
    throw new Error('at least one agent a day and 12 sovereigns');
  return size;
}

/**
 * `--embedded <dir>` taken out of the command line: the embedded data directory to seed (created
 * if missing) instead of the configured database; DATABASE_URL is then ignored. The rest is the size.
 */
export function seedTarget(argv: readonly string[]): { dataDir?: string; rest: string[] } {
  const at = argv.indexOf('--embedded');
  if (at < 0) return { rest: [...argv] };
  const dataDir = argv[at + 1];
  if (!dataDir || dataDir.startsWith('--')) throw new Error('--embedded needs a data directory');
  return { dataDir, rest: [...argv.slice(0, at), ...argv.slice(at + 2)] };
}

/** A small deterministic generator (mulberry32), so two seeds of one size are alike. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One item of a non-empty list, drawn with `next` (one draw, as `list[⌊next() · length⌋]`). */
export function pick<T>(next: () => number, list: readonly T[]): T {
  const item = list[Math.floor(next() * list.length)];
  if (item === undefined) throw new RangeError('nothing to pick from an empty list');
  return item;
}

/** How many of `total` fall on day `day` of `days` (the remainder spread over the first days). */
export function share(total: number, days: number, day: number): number {
  return Math.floor(total / days) + (day < total % days ? 1 : 0);
}

const WORDS = (
  'river lantern quiet harbor ledger signal morning orbit granite meadow thread archive ember ' +
  'compass window tide question garden beacon paper circuit echo summit willow cinder atlas ' +
  'promise hollow mirror season north anchor witness fable vessel copper horizon'
).split(' ');

/** A plain body of 6–20 words, nothing the spam gate would hold. */
export function bodyText(next: () => number, sequenceHint: number): string {
  const n = 6 + Math.floor(next() * 15);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(pick(next, WORDS));
  return `${words.join(' ')} (${sequenceHint})`;
}

/** The spam gate's rules, for the imprints the seed stores held. */
export const HOLD_RULES = ['burst', 'bad_pattern', 'link_density', 'repetition'] as const;

/**
 * An agent's class by its index: half arrive and never return, four in ten come back with their
 * continuity secret (continuous once proved on two days), one in ten is attested by a sovereign.
 */
export type AgentClass = 'arrival' | 'returning' | 'attested';
export function agentClass(index: number): AgentClass {
  const r = index % 10;
  if (r < 5) return 'arrival';
  return r < 9 ? 'returning' : 'attested';
}

/** The agent's handle: lowercase, within HANDLE_PATTERN. */
export function agentHandle(index: number): string {
  return `seed-agent-${index.toString(36).padStart(5, '0')}`;
}
