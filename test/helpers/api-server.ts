/**
 * A real API process for multi-process tests: builds the app on DATABASE_URL (or an embedded
 * database in CIVITAS_DATA_DIR), listens on an ephemeral loopback port and reports its address
 * to the parent over IPC. Started by startApiProcess().
 */
import { buildApp } from '../../api/app.ts';

const app = await buildApp({
  site: process.env.CIVITAS_TEST_SITE === '1',
  // Budgets out of the way, unless the test sets them (CIVITAS_RATE_*_PER_MIN) to watch them.
  config: {
    ...(process.env.CIVITAS_RATE_READS_PER_MIN ? {} : { rateReadsPerMin: 1_000_000 }),
    ...(process.env.CIVITAS_RATE_WRITES_PER_MIN ? {} : { rateWritesPerMin: 1_000_000 }),
  },
});
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.send?.({ ready: address });
process.on('disconnect', () => {
  void app.close().then(() => process.exit(0));
});
