/**
 * Resonance's ranking is kept by the observatory job (issue 20; migration 0078) and pages by key:
 * following `next` lists the whole ranking once, highest score first, refs A to Z within a score,
 * as the full computation orders it; `previous` walks back; an erased author's row goes at once;
 * a cursor the list did not write is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import type { TestSovereign } from '../../helpers/identity.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { erased, sovereignImprint } from '../../helpers/builders.ts';
import { requests } from '../../helpers/http.ts';
import { expectCursorsRefused, walkBack, walkForward, type PageBody } from '../../helpers/paging.ts';
import { computeKept } from '../../../api/db/kept-views.ts';
import { keptResonance } from '../../../api/people/resonance.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { at } from '../../helpers/elements.ts';

let t: TestApp;
let steward: TestSovereign;
const authors: TestSovereign[] = [];
beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
type Entry = { actor: string; score: number };
const entriesOf = (body: PageBody) => (body as PageBody & { entries: Entry[] }).entries;
const imprintAs = async (who: TestSovereign, body: string, replyTo?: number) =>
  (await sovereignImprint(t.app, who, body, { kind: 'thought', replyTo })).sequence;

/** The ranking as the route computed it before it was kept: every author's window summed and sorted. */
async function computed(): Promise<Entry[]> {
  const rows = await t.database.db.query<{ tag: string; n: string | number }>(
    `select v.tag, sum(r.replies) as n from resonance_days r join sovereigns v on v.id::text = r.author_ref
      where r.author_kind = 'sovereign' and v.erased_at is null group by v.tag having sum(r.replies) > 0`,
  );
  return rows
    .map((r) => ({ actor: `sovereign:${r.tag}`, score: Number(r.n) }))
    .sort((a, b) => b.score - a.score || (a.actor < b.actor ? -1 : 1));
}

describe('/api/resonance', () => {
  it('pages the kept ranking by key, in the full computation order', async () => {
    // Four repliers (the gate holds a burst from one), seven authors answered 1, 1, 2, 2, 3, 3 and
    // 4 times: ties to order by ref.
    const repliers = [];
    for (let r = 0; r < 4; r++) repliers.push(await signedInSovereign(t.app));
    for (const [i, replies] of [1, 1, 2, 2, 3, 3, 4].entries()) {
      const author = await signedInSovereign(t.app);
      authors.push(author);
      const root = await imprintAs(author, `Question ${i} for the commons`);
      for (let r = 0; r < replies; r++) await imprintAs(at(repliers, r), `Answer ${i}.${r}`, root);
    }
    await computeKept(t.app.civitas, keptResonance);
    const expected = await computed();
    expect(expected).toHaveLength(7);
    const walked = await walkForward(get, '/api/resonance?limit=2', entriesOf);
    expect(walked.pages).toBe(4);
    expect(walked.items).toEqual(expected);
    expect(await walkBack(get, walked.last, entriesOf)).toEqual(expected);
    const first = (await get('/api/resonance?limit=2')).json();
    expect(first.next).toMatch(/^\/api\/resonance\?limit=2&after=/);
    expect(JSON.stringify(first)).not.toContain(at(authors, 0).id);
  });

  it('drops an erased author at once, and refuses a cursor it did not write', async () => {
    const gone = at(authors, 6);
    await erased(t.app, gone, steward);
    const all = (await walkForward(get, '/api/resonance?limit=100', entriesOf)).items;
    expect(all.map((e) => e.actor)).not.toContain(`sovereign:${gone.tag}`);
    await computeKept(t.app.civitas, keptResonance);
    expect((await walkForward(get, '/api/resonance?limit=3', entriesOf)).items).toEqual(await computed());
    await expectCursorsRefused(get, '/api/resonance');
    expect((await get('/api/resonance?limit=501')).statusCode).toBe(400);
  });
});
