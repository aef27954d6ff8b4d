/**
 * The API process the scale bench measures: the real app (with the built site when dist/ exists)
 * on DATABASE_URL, under CIVITAS_ORIGIN (the seed's: the anchors' key name is its host), one
 * process, rate limits lifted so the limiter measures and never refuses, the log's days tiled as
 * the running service's job tiles them, its kept views kept as its job keeps them. Says its
 * address over IPC.
 */
import { buildApp } from '../../../api/app.ts';
import { tileUntiledDays } from '../../../api/ledger/tiling.ts';
import { organismJobs } from '../../../api/organism/jobs.ts';

const app = await buildApp({
  config: { rateReadsPerMin: 100_000_000, rateWritesPerMin: 100_000_000 },
});
// No jobs run here, so a Record seeded before tiles (migration 0060) would answer every proof of a
// day by rebuilding its tree from its leaves (14 s for a day of 100,000 on this machine), as a
// running service does only until its `ledger.tile` job has tiled that day: tile them first.
await tileUntiledDays(app.civitas);
// The kept views (api/db/kept-views.ts: the swarm, the prevention findings, the observatory,
// resonance) are what a running service's `organism.observatory` job keeps fresh; a row older than
// three intervals is recomputed by the request that finds it, over the whole window (more than the
// bench's budget on the 1,000,000-imprint Record). Kept here as the job keeps them.
const kept = organismJobs.find((job) => job.name === 'organism.observatory')!;
await kept.run(app.civitas, app);
const keeping = setInterval(() => void kept.run(app.civitas, app).catch(() => {}), kept.intervalMs);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ ready: address });
process.on('disconnect', async () => {
  clearInterval(keeping);
  await app.close();
  process.exit(0);
});
