/**
 * civitas for benchmarking: the real app (no site), on DATABASE_URL when set, else an embedded
 * database in a temporary directory; rate limits lifted so the limiter measures, never refuses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../api/app.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'civitas-bench-'));
const app = await buildApp({
  site: false,
  config: { dataDir, rateReadsPerMin: 100_000_000, rateWritesPerMin: 100_000_000, origin: 'http://127.0.0.1' },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ ready: address });
process.on('disconnect', async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
