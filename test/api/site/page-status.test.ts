/**
 * A page that reads one API answer says what that answer said: a page whose API failed answers 503
 * (with its own "could not be read" note), not 200. The page sets its status itself: a status set
 * inside a component came after the response had started and was lost (the recovery-paradox
 * expedition, the operator console; /endow is test/api/treasury/inscriptions-paging.test.ts).
 * A table the view reads is renamed for the length of the check, as the vitals test does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import type { TestSovereign } from '../../helpers/identity.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
let steward: TestSovereign;
beforeAll(async () => {
  ({ t, steward } = await appWithSteward({ site: true }));
});
afterAll(async () => t?.close());

const { page } = requests(() => t.app);

/** Runs `check` while `table` is missing, then puts it back. */
async function without(table: string, check: () => Promise<void>) {
  await t.database.db.query(`alter table ${table} rename to ${table}_away`);
  try {
    await check();
  } finally {
    await t.database.db.query(`alter table ${table}_away rename to ${table}`);
  }
}

describe('a page whose API answer failed', () => {
  it('answers 503 for the recovery-paradox expedition and its alias, and 200 once it reads again', async () => {
    await without('organism_runs', async () => {
      for (const url of ['/expeditions/recovery-paradox', '/expeditions']) {
        const res = await page(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.body, url).toMatch(/could not be read/i);
      }
    });
    expect((await page('/expeditions/recovery-paradox')).statusCode).toBe(200);
  });

  it('answers 503 for the operator console and its alias, still noindex', async () => {
    await without('lessons', async () => {
      for (const url of ['/operator', '/dashboard']) {
        const res = await page(url, steward);
        expect(res.statusCode, url).toBe(503);
        expect(res.headers['x-robots-tag'], url).toContain('noindex');
      }
    });
    const ok = await page('/operator', steward);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-robots-tag']).toContain('noindex');
  });
});
