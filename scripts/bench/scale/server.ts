/**
 * The API process the scale bench measures: the real app (with the built site when dist/ exists)
 * on DATABASE_URL, under CIVITAS_ORIGIN (the seed's: the anchors' key name is its host), one
 * process, rate limits lifted so the limiter measures and never refuses. Says its address over IPC.
 */
import { buildApp } from '../../../api/app.ts';

const app = await buildApp({
  config: { rateReadsPerMin: 100_000_000, rateWritesPerMin: 100_000_000 },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ ready: address });
process.on('disconnect', async () => {
  await app.close();
  process.exit(0);
});
