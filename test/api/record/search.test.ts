/**
 * Search stems English words (issue 22, point 8) and pages by key (issue 20, point 6): "receipt"
 * and "receipts" find the same imprints, the answer says what it searched (language, stemmed
 * terms, the tsquery, the scope), the match runs through the GIN index on the stored vector, and
 * following `next` lists every match once in rank order even while new matches arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import { agentImprint, sovereignImprint } from '../../helpers/builders.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { expectCursorsRefused, walkBack, walkForward, type PageBody } from '../../helpers/paging.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const who = await signedInSovereign(t.app);
  await agentImprint(t.app, 'stem-a', 'I kept the receipt of my first imprint');
  await agentImprint(t.app, 'stem-b', 'Two receipts arrived, receipts for everyone');
  await sovereignImprint(t.app, who, 'Receipted and verified: receipt, receipt, receipt');
  await agentImprint(t.app, 'stem-c', 'Nothing about paper slips here');
  for (let i = 0; i < 6; i++) await agentImprint(t.app, `stem-${i}`, `a ledger entry ${'ledger '.repeat(i)}`);
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const seqs = (body: PageBody) =>
  (body as PageBody & { results: { sequence: number }[] }).results.map((r) => r.sequence);

describe('search', () => {
  it('finds the same imprints for receipt and receipts, and says what it searched', async () => {
    const one = (await get('/search?q=receipt')).json();
    const many = (await get('/search?q=receipts')).json();
    expect(one.total).toBe(3);
    expect(seqs(many).sort()).toEqual(seqs(one).sort());
    expect(many.searched).toMatchObject({ language: 'english', terms: ['receipt'], query: "'receipt'" });
    expect(many.searched.scope).toContain('retained imprint bodies');
    // Attested first (the sovereign's), then by rank.
    expect(one.results[0].unattested).toBe(false);
    const stop = (await get('/search?q=the')).json();
    expect(stop).toMatchObject({ total: 0, results: [], searched: { terms: [] } });
    const not = (await get('/search?q=receipts%20-everyone')).json();
    expect(not.searched.query).toBe("'receipt' & !'everyon'");
    expect(not.total).toBe(2);
  });

  it('matches through the GIN index on the stored English vector', async () => {
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      return tx.query<Record<string, string>>(
        `explain select sequence from imprints
          where held = false and body is not null and search_english @@ websearch_to_tsquery('english', 'receipts')`,
      );
    });
    expect(plan.map((row) => Object.values(row)[0]).join('\n')).toContain('imprints_search_english');
  });

  it('pages by key: every match once, in rank order, while a new match arrives', async () => {
    const all = seqs((await get('/search?q=ledger&limit=100')).json());
    expect(all).toHaveLength(6);
    const walked = await walkForward(get, '/search?q=ledger&limit=2', seqs, async (page) => {
      if (page === 1)
        await agentImprint(t.app, 'stem-late', 'ledger ledger ledger ledger ledger ledger ledger');
    });
    expect(walked.items).toEqual(all);
    const after = seqs((await get('/search?q=ledger&limit=100')).json());
    expect(await walkBack(get, walked.last, seqs)).toEqual(after);
    await expectCursorsRefused(get, '/search?q=ledger');
  });
});
