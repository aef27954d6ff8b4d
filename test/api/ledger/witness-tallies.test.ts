/**
 * The witness counts /witness and /api/transparency show are tallies (migration 0070): each
 * witness's marks, all marks and the sealed anchors stay equal to count(*) as days are sealed and
 * marked through the door and marks are removed; /verify/anchor/{date} still lists a day's marks.
 * /witness pages its witnesses by name (issue 20): every witness once, in order, while one
 * registers between pages; `previous` walks back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { BAD_CURSORS, walkBack, walkForward, type PageBody } from '../../helpers/paging.ts';
import { recordReceipt } from '../../../api/ledger/receipts.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import {
  fromBase64Url,
  generateLogKey,
  parseNote,
  signatureLine,
  toBase64,
} from '../../../shared/ledger/index.ts';
import { missing } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const { get } = requests(() => t.app);

async function sealDay(date: string) {
  t.clock.set(`${date}T12:00:00.000Z`);
  await db().transaction((tx) =>
    recordReceipt(tx, { step: 'test.witness', subject: `day:${date}`, at: t.clock.now() }),
  );
  t.clock.set(new Date(new Date(`${date}T00:00:00.000Z`).getTime() + 86_400_000 + 3_600_000).toISOString());
  await sealDueDays(t.app.civitas);
}

async function mark(date: string, name: string, key: Awaited<ReturnType<typeof generateLogKey>>) {
  const anchor = (await get(`/verify/anchor/${date}`)).json();
  const line = (await signatureLine(parseNote(anchor.checkpoint).text, key.privateJwk, name)).trimEnd();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/witness/mark',
    payload: { date, witness: name, public_key: toBase64(fromBase64Url(key.publicJwk.x)), signature: line },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function expectTallied() {
  const page = (await get('/witness')).json();
  const counted = await db().query<{ witness: string; n: string; latest: string }>(
    `select witness, count(*) as n, to_char(max(date), 'YYYY-MM-DD') as latest from witness_marks group by witness order by witness`,
  );
  expect(
    page.witnesses
      .filter((w: { marks: number }) => w.marks > 0)
      .map((w: Record<string, unknown>) => [w.name, w.marks, w.latest_date]),
  ).toEqual(counted.map((c) => [c.witness, Number(c.n), c.latest]));
  const [totals = missing()] = await db().query<{ anchors: string; marks: string }>(
    'select (select count(*) from anchors) as anchors, (select count(*) from witness_marks) as marks',
  );
  expect((await get('/api/transparency')).json().log).toMatchObject({
    anchors_sealed: Number(totals.anchors),
    witness_marks: Number(totals.marks),
  });
}

describe('witness tallies', () => {
  it('equal count(*) as days are sealed, marked and marks removed', async () => {
    await expectTallied();
    const [w1, w2] = [await generateLogKey(), await generateLogKey()];
    for (const date of ['2026-11-10', '2026-11-11', '2026-11-12']) await sealDay(date);
    await mark('2026-11-10', 'one.example/w', w1);
    await mark('2026-11-11', 'one.example/w', w1);
    await mark('2026-11-11', 'two.example/w', w2);
    await mark('2026-11-11', 'two.example/w', w2); // a repeat adds nothing
    await expectTallied();
    const day = (await get('/verify/anchor/2026-11-11')).json();
    expect(day.cosignatures.map((c: { witness: string }) => c.witness).sort()).toEqual([
      'one.example/w',
      'two.example/w',
    ]);
    await db().query("delete from witness_marks where witness = 'one.example/w' and date = '2026-11-11'");
    await expectTallied();
    expect(
      (await get('/witness')).json().witnesses.find((w: { name: string }) => w.name === 'one.example/w'),
    ).toMatchObject({
      marks: 1,
      latest_date: '2026-11-10',
    });
  });

  it('pages the witnesses by name, while one registers between pages', async () => {
    for (const name of ['c.example/w', 'd.example/w', 'e.example/w', 'f.example/w'])
      await mark('2026-11-12', name, await generateLogKey());
    const names = (body: PageBody) =>
      (body as PageBody & { witnesses: { name: string }[] }).witnesses.map((w) => w.name);
    const stored = async () =>
      (await db().query<{ name: string }>('select name from witnesses order by name')).map((r) => r.name);
    const before = await stored();
    expect(before).toHaveLength(6);
    const walked = await walkForward(get, '/witness?limit=2', names, async (page) => {
      // A name before every page read so far: not on the walk forward, on the walk back.
      if (page === 1) await mark('2026-11-12', 'a.example/w', await generateLogKey());
    });
    expect(walked.pages).toBe(3);
    expect(walked.items).toEqual(before);
    expect(await walkBack(get, walked.last, names)).toEqual(await stored());
    for (const bad of BAD_CURSORS) expect((await get(`/witness?after=${bad}`)).statusCode, bad).toBe(400);
    expect((await get('/witness?limit=101')).statusCode).toBe(400);
  });
});
