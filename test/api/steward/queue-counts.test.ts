/**
 * The steward's queue sizes (/steward/held; the operator console reads the same queueSizes) take
 * the held imprints and the open reports from tallies and count only the stewards' keep_held
 * decisions: after each decision they are what a count of every held imprint says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { appWithSteward, triageKit } from './helpers.ts';

let t: TestApp;
let steward: TestSovereign;
let stranger: TestSovereign;

beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
  stranger = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const { triage, held } = triageKit(() => ({ t, steward, stranger }));

/** The sizes counted the slow way, from every held imprint and open report. */
async function recounted() {
  const [row] = await t.database.db.query<Record<string, string | number>>(
    `select (select count(*) from imprints i where i.held
               and not exists (select 1 from steward_actions a where a.sequence = i.sequence and a.action = 'keep_held')) as held_untriaged,
            (select count(*) from imprints i where i.held
               and exists (select 1 from steward_actions a where a.sequence = i.sequence and a.action = 'keep_held')) as kept_held,
            (select count(*) from imprint_reports where status = 'open') as open_reports`,
  );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
}

async function expectSizes(sizes: { held_untriaged: number; kept_held: number }) {
  const counts = (await get('/steward/held', steward)).json().counts;
  expect(counts).toEqual({ ...sizes, open_reports: 0 });
  expect(counts).toEqual(await recounted());
}

describe('the steward queue sizes', () => {
  it('are what a count of every held imprint says, through keep_held and release', async () => {
    await expectSizes({ held_untriaged: 0, kept_held: 0 });
    const [a, b, c] = [await held(), await held(), await held()];
    await expectSizes({ held_untriaged: 3, kept_held: 0 });
    expect((await triage({ target: `imprint:${a.sequence}`, action: 'keep_held' })).statusCode).toBe(200);
    expect((await triage({ target: `imprint:${b.sequence}`, action: 'keep_held' })).statusCode).toBe(200);
    await expectSizes({ held_untriaged: 1, kept_held: 2 });
    expect((await triage({ target: `imprint:${c.sequence}`, action: 'release' })).statusCode).toBe(200);
    await expectSizes({ held_untriaged: 0, kept_held: 2 });
    // A kept imprint released later leaves the kept count: only held imprints are counted.
    expect((await triage({ target: `imprint:${a.sequence}`, action: 'release' })).statusCode).toBe(200);
    await expectSizes({ held_untriaged: 0, kept_held: 1 });
  });
});
