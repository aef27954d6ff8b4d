/**
 * The settings every API process runs with (issue 20: under 400 MB of resident memory throughout),
 * measured in docs/scale.md ("Memory under load"). `npm start`, `npm run api` and the
 * Containerfile's CMD give them on the command line (a structure test holds them to this list);
 * the cluster's primary gives them to every worker it forks (api/cluster.ts), and the benches to
 * every API process they start (scripts/bench/harness.ts).
 *
 * - `--max-old-space-size=256`: V8 sizes the old generation from the machine's memory (4 GB on one
 *   of 24 GB) and then lets it grow to 4× what a collection left live before collecting again.
 *   Under 50 concurrent requests the garbage promoted out of the young generation took the heap
 *   past 200 MB (300 with compressed answers) on a live set of about 100 MB, and the pages V8
 *   took stay resident. With a limit of 256 MB V8 grows the old generation at most 1.3× the live
 *   set (1.4× at 512, 1.6× at 1,024), so it peaks near 150 MB; 256 leaves the live set room to
 *   more than double before V8 would stop the process.
 * - `--max-semi-space-size=32`: the young generation capped at 2 × 32 MB. Left to itself, Node 24
 *   grows it to 2 × 64 MB under a burst of allocation and keeps it; at 2 × 16 MB a request's
 *   objects outlive two scavenges under load and are promoted, and the capped old generation
 *   then needs twice the mark-compacts (GC pauses per request twice those at 2 × 32 MB).
 * - `MALLOC_ARENA_MAX=2` (glibc): every thread that allocates (libuv's pool compressing answers,
 *   V8's helpers) otherwise gets its own malloc arena, up to 8 per core, and each keeps what it
 *   freed: 60–100 MB under compressed load, where two arenas keep about 35.
 * - `--liftoff-only`: WebAssembly compiled by V8's baseline compiler only. The embedded database
 *   (PGlite: PostgreSQL compiled to WebAssembly, in this process) otherwise has its hot functions
 *   recompiled by TurboFan: 270 MB of resident code and compiler memory on top of the database's
 *   own, peaks of 800–900 MB at start, where Liftoff alone keeps it under 400 MB (docs/scale.md
 *   "Embedded"). On PostgreSQL the process's other WebAssembly is undici's HTTP parser and
 *   satori's layout engine (cards): 40 card renders cost 4.1–4.9 ms each with and without the flag.
 */

/** Node's flags for an API process. */
export const API_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=32',
  '--max-old-space-size=256',
  '--liftoff-only',
];

/** The environment an API process starts with (read by glibc when the process starts). */
export const API_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** A flag's name: `--max-old-space-size` of `--max-old-space-size=256`. */
const flagName = (flag: string) => flag.split('=', 1)[0]!.replaceAll('_', '-');

/**
 * `execArgv` with every API flag it does not already set: a value the operator gave the primary
 * (a larger old space on a larger machine, say) is kept, a missing one is added.
 */
export function withApiFlags(execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.map(flagName));
  return [...execArgv, ...API_NODE_FLAGS.filter((flag) => !given.has(flagName(flag)))];
}

/** `env` with every API setting it does not already have (the operator's value is kept). */
export function withApiEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...API_PROCESS_ENV, ...env };
}
