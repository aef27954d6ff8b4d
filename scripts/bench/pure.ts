/**
 * In-process work with no database, timed here and never in tests (tests count the work instead:
 * test/shared/ledger/merkle.test.ts counts digests, test/shared/boundaries/census.test.ts counts
 * projector calls and I/O turns).
 *
 *   node scripts/bench/pure.ts          (also called by `npm run bench`, after the receipt bench)
 *
 * Prints: building a 100k-leaf Merkle tree, 1000 inclusion proofs from it, and one boundary census
 * without header probes (mean of 200).
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { addressPressure } from '../../shared/boundaries/address-pressure.ts';
import { runCensus } from '../../shared/boundaries/census.ts';
import { computeCoverage, tier1FromNamespaces, TIER1_MODULES } from '../../shared/boundaries/coverage.ts';
import { leafHash } from '../../shared/ledger/hash.ts';
import { buildTree } from '../../shared/ledger/merkle.ts';
import { inclusionProof } from '../../shared/ledger/inclusion.ts';

async function merkle(): Promise<void> {
  const n = 100_000;
  const leaves = await Promise.all(
    Array.from({ length: n }, (_, i) => leafHash(new TextEncoder().encode(`r${i}`))),
  );
  let t = performance.now();
  const tree = await buildTree(leaves);
  const buildMs = performance.now() - t;
  t = performance.now();
  for (let k = 0; k < 1000; k++) await inclusionProof(tree, (k * 7919) % n);
  const proofsMs = performance.now() - t;
  console.log(
    `merkle tree of ${n} leaves:  build ${buildMs.toFixed(0)} ms, 1000 inclusion proofs ${proofsMs.toFixed(0)} ms`,
  );
}

async function census(): Promise<void> {
  const namespaces = [];
  for (const module of TIER1_MODULES)
    namespaces.push({
      module,
      exports: (await import(new URL(`../../${module}`, import.meta.url).href)) as Record<string, unknown>,
    });
  const coverage = computeCoverage({ ...tier1FromNamespaces(namespaces), surfaces: [], modules: [] });
  const options = { coverage, addressPressure: addressPressure(['a1f3', '7c20']) };
  await runCensus(options);
  const runs = 200;
  const t = performance.now();
  for (let i = 0; i < runs; i++) await runCensus(options);
  console.log(
    `boundary census without header probes:  ${((performance.now() - t) / runs).toFixed(3)} ms per census (mean of ${runs})`,
  );
}

export async function runPureBench(): Promise<void> {
  await merkle();
  await census();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runPureBench();
