/**
 * A real API process for the window test: the app on DATABASE_URL, listening on an ephemeral
 * loopback port, reporting its address to the parent over IPC; it closes when the parent disconnects.
 */
import { buildApp } from '../../../api/app.ts';

const app = await buildApp({
  site: false,
  config: { rateReadsPerMin: 10_000_000, rateWritesPerMin: 10_000_000 },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ ready: address });
process.on('disconnect', () => {
  void app.close().then(() => process.exit(0));
});
