/**
 * `npm run verify:full [-- --seconds=60] [-- --restart]`: the operator's full re-verification of
 * the Record, the log and the censuses from genesis (api/organism/checks/full.ts), on
 * DATABASE_URL (or the embedded database). Bounded in time per run; checkpointed, so the next
 * run resumes where this one stopped. Problems it finds are stored, and the next run of the
 * organism.vigilance job turns the right trial red; `/api/self-trials` shows how far it reached
 * (`verification.walks[].full`). Then the prevention experiment's kept counts are counted again
 * from the rows of their window (api/organism/experiments/prevention-counts.ts), the days whose
 * kept counts differed named, and the findings kept at once.
 */
import { buildApp } from '../api/app.ts';
import { verifyFull } from '../api/organism/checks/full.ts';
import { computeKept } from '../api/db/kept-views.ts';
import { keptPrevention } from '../api/organism/experiments/prevention.ts';
import { countPrevention } from '../api/organism/experiments/prevention-counts.ts';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}`));
const seconds = Number(arg('seconds')?.split('=')[1] ?? 60);
const app = await buildApp();
try {
  const result = await verifyFull(app.civitas, { seconds, restart: Boolean(arg('restart')) });
  console.log(
    result.done
      ? `full re-verification reached the head (${result.checked} items verified in this run)`
      : `full re-verification checkpointed after ${seconds} s (${result.checked} items verified in this run); run it again to resume`,
  );
  // The prevention experiment's kept counts, counted again from the window's rows and kept now.
  const counted = await countPrevention(app.civitas, { whole: true });
  await computeKept(app.civitas, keptPrevention);
  console.log(
    `prevention counts: ${counted.recounted.length} days from ${counted.from} counted again from the rows; ${
      counted.differed.length
        ? `the kept counts differed on ${counted.differed.join(', ')}`
        : 'the kept counts equalled them'
    }`,
  );
} finally {
  await app.close();
}
