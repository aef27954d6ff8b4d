import { expect } from 'vitest';
import { appendImprint } from '../../../api/record/window.ts';
import type { TestApp } from '../../helpers/app.ts';
import { imprintDraft } from '../../helpers/imprint-draft.ts';

/**
 * Fills the Record past its window: one agent arrives through HTTP (real receipts, real agent row),
 * then `seeded - 1` more imprints by it go through the same append the routes use; imprint 505 is held.
 */
export async function fillPastWindow(t: TestApp, seeded: number): Promise<void> {
  const first = await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: 'organism-probe', body: 'first thought' },
  });
  expect(first.statusCode).toBe(200);
  await t.database.db.transaction(async (tx) => {
    for (let i = 2; i <= seeded; i++) {
      await appendImprint(
        tx,
        imprintDraft({
          body: `seed ${i}`,
          authorRef: 'organism-probe',
          unattested: true,
          held: i === 505,
          heldReason: i === 505 ? 'link_density' : null,
          at: t.clock.now(),
        }),
      );
    }
  });
}
