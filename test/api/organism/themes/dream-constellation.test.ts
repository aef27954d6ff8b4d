/**
 * The dream constellation from what migration 0082 keeps as dreams are stored (`dream_terms`,
 * `dream_links`, the tally `dreams`): after dreams are added, changed and removed, it answers
 * exactly what a reading of every dream would (the reference below: the view before 0082).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINKS, STARS } from '../../../../api/organism/themes/constellation.ts';
import { createTestApp, type TestApp } from '../../../helpers/app.ts';
import { requests } from '../../../helpers/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => t?.close());

const { get: json } = requests(() => t.app);
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.database.db.query<T>(text, params);
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every dream read, as the view did before its terms and pairs were kept. */
async function fromEveryDream() {
  const rows = await sql<{ date: string; terms: { term: string }[] }>(
    `select to_char(date, 'YYYY-MM-DD') as date, terms from dreams order by date`,
  );
  const named = new Map<string, { dreams: number; first: string; last: string }>();
  for (const row of rows)
    for (const term of new Set(row.terms.map((x) => String(x.term)))) {
      const e = named.get(term) ?? { dreams: 0, first: row.date, last: row.date };
      named.set(term, { dreams: e.dreams + 1, first: e.first, last: row.date });
    }
  const stars = [...named]
    .map(([term, e]) => ({ term, dreams: e.dreams, first_dreamt: e.first, last_dreamt: e.last }))
    .sort((a, b) => b.dreams - a.dreams || byCodePoint(a.term, b.term))
    .slice(0, STARS * 2);
  const keep = new Set(stars.map((s) => s.term));
  const pairs = new Map<string, { a: string; b: string; shared: number }>();
  for (const row of rows) {
    const terms = [...new Set(row.terms.map((x) => String(x.term)).filter((x) => keep.has(x)))].sort();
    for (let i = 0; i < terms.length; i++)
      for (let j = i + 1; j < terms.length; j++) {
        const key = `${terms[i]} ${terms[j]}`;
        pairs.set(key, { a: terms[i]!, b: terms[j]!, shared: (pairs.get(key)?.shared ?? 0) + 1 });
      }
  }
  const links = [...pairs.values()]
    .sort((x, y) => y.shared - x.shared || x.a.localeCompare(y.a) || x.b.localeCompare(y.b))
    .slice(0, MAX_LINKS);
  return { dreams: rows.length, stars, links };
}

async function dream(date: string, terms: string[]) {
  await sql(
    `insert into dreams (date, window_start, window_end, bodies, terms, made_at, receipt_id)
     values ($1, $1::date, $1::date + 1, 9, $2::jsonb, $1::date + 1, 'rcpt_dream_test')`,
    [date, JSON.stringify(terms.map((term, i) => ({ term, count: 3, score: 10 - i })))],
  );
}

async function expectKeptEqualsEveryDream() {
  const body = (await json('/dream-constellation')).json();
  const { dreams, stars, links } = await fromEveryDream();
  expect({ dreams: body.dreams, stars: body.stars, links: body.links }).toEqual({ dreams, stars, links });
  expect((await json('/api/dreaming')).json().dreams_total).toBe(dreams);
}

describe('the dream constellation, kept', () => {
  it('equals a reading of every dream after dreams are added, changed and removed', async () => {
    await expectKeptEqualsEveryDream();
    // More terms than the stars it shows, repeated terms within a dream, a pair in several dreams.
    const words = Array.from({ length: STARS * 3 }, (_, i) => `word${String(i).padStart(3, '0')}`);
    for (let day = 1; day <= 20; day++)
      await dream(`2026-10-${String(day).padStart(2, '0')}`, [
        'harbour',
        'lanterns',
        ...words.slice(day * 3, day * 3 + 8),
        day % 2 ? 'tide' : 'harbour',
      ]);
    await expectKeptEqualsEveryDream();
    const body = (await json('/dream-constellation')).json();
    expect(body.stars.slice(0, 2)).toEqual([
      { term: 'harbour', dreams: 20, first_dreamt: '2026-10-01', last_dreamt: '2026-10-20' },
      { term: 'lanterns', dreams: 20, first_dreamt: '2026-10-01', last_dreamt: '2026-10-20' },
    ]);
    expect(body.links[0]).toEqual({ a: 'harbour', b: 'lanterns', shared: 20 });

    // A dream changed (its terms and its day) and two removed, the first of them among them.
    await sql(`update dreams set terms = $2::jsonb, date = '2026-11-30' where date = $1`, [
      '2026-10-05',
      JSON.stringify([
        { term: 'lanterns', count: 2, score: 1 },
        { term: 'storm', count: 2, score: 1 },
      ]),
    ]);
    await sql(`delete from dreams where date in ('2026-10-01', '2026-10-07')`);
    await expectKeptEqualsEveryDream();
    const after = (await json('/dream-constellation')).json();
    expect(after.stars.find((s: { term: string }) => s.term === 'harbour')).toMatchObject({
      dreams: 17,
      first_dreamt: '2026-10-02',
      last_dreamt: '2026-10-20',
    });
    expect(after.stars.find((s: { term: string }) => s.term === 'lanterns')).toMatchObject({
      dreams: 18,
      last_dreamt: '2026-11-30',
    });
  }, 60_000);
});
