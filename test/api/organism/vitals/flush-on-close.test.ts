/**
 * Issue 19: the vitals and failures of the last interval (not yet flushed by the periodic job) are
 * written when the app closes, so a graceful shutdown loses none of them.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../helpers/app.ts';
import { jsonHeaders } from '../../../helpers/builders.ts';
import { vitalsBufferOf } from '../../../../api/plugins/vitals.ts';
import { missing } from '../../../helpers/elements.ts';

describe('closing the app', () => {
  it('flushes the requests and failures it has not written yet', async () => {
    const t = await createTestApp();
    try {
      for (let i = 0; i < 3; i++)
        await t.app.inject({ method: 'GET', url: '/api/stats', headers: jsonHeaders() });
      vitalsBufferOf(t.app.civitas)!.fail(t.clock.now(), 'runtime');
      await t.app.close();
      const [minutes = missing()] = await t.database.db.query<{ n: string | number }>(
        'select coalesce(sum(requests), 0) as n from vitals_minutes',
      );
      expect(Number(minutes.n)).toBe(3);
      const failures = await t.database.db.query<{ lane: string }>('select lane from failures');
      expect(failures).toEqual([{ lane: 'runtime' }]);
    } finally {
      await t.database.drop();
    }
  });
});
