/**
 * The imprint batch histograms (api/plugins/metrics.ts) are observed only while some app of the
 * process serves metrics (CIVITAS_METRICS_PORT): without it the sequencer's batches pay nothing
 * for series nobody reads; with it every batch is counted (test/api/ops/metrics.test.ts scrapes them).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { metricsRegistry } from '../../../api/plugins/metrics.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

async function batchesCounted(): Promise<number> {
  const text = await metricsRegistry.getSingleMetricAsString('civitas_imprint_batch_size');
  return Number(/^civitas_imprint_batch_size_count (\d+)$/m.exec(text)?.[1] ?? 0);
}

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

describe('imprint batch metrics', () => {
  it('are not observed without a metrics listener, and are once one is configured', async () => {
    const quiet = await createTestApp();
    apps.push(quiet);
    const before = await batchesCounted();
    const first = await quiet.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'unmetered', body: 'no one scrapes this process' },
    });
    expect(first.statusCode).toBe(200);
    expect(await batchesCounted()).toBe(before);

    const metered = await createTestApp({ config: { metrics: { port: 0, host: '127.0.0.1' } } });
    apps.push(metered);
    const second = await metered.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'metered', body: 'an operator scrapes this process' },
    });
    expect(second.statusCode).toBe(200);
    expect(await batchesCounted()).toBe(before + 1);
  });
});
