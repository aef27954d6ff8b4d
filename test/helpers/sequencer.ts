import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that run long for their size: a browser, child processes, a crawl of every route. Vitest
 * orders files by their last run's duration, or, with no earlier run (a clean clone, CI), by size,
 * which would start these last and leave one of them running alone at the end. Listed in the
 * order they should start, browsers spread among the rest so that two rarely share the cores.
 * A renamed file only loses its place in the queue; nothing fails.
 */
const LONG_FIRST = [
  /test\/e2e\/sweep\./,
  /test\/api\/leak-crawler\./,
  /test\/api\/contract\/statuses\./,
  /test\/api\/db\/migrations\./,
  /test\/e2e\/journey[.-]/,
  /test\/api\/organism\/checks\/incremental\./,
  /test\/api\/record\/crash\./,
  /test\/e2e\/identity\./,
  /test\/api\/record\/window\./,
  /test\/api\/perf\/cluster\./,
  /test\/e2e\//,
  /test\/api\/mcp-conformance\./,
  /test\/api\/db\//,
  /test\/api\/outage\/startup\./,
  /test\/api\/ledger\/tile-math\./,
  /test\/api\/ops\/(metrics|shutdown)\./,
];

const rank = (spec: TestSpecification): number => {
  const index = LONG_FIRST.findIndex((pattern) => pattern.test(spec.moduleId));
  return index === -1 ? LONG_FIRST.length : index;
};

export default class LongFirstSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: within a rank (and for all the rest) vitest's order holds.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
