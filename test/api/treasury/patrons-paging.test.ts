/**
 * Listed patrons page by key (issue 20, point 6): /api/patrons answers one bounded page, longest-
 * standing first, with links to its neighbours, so the list costs a page however many chose to be
 * listed. Patrons are written below the doors here, as the payment webhook writes them
 * (api/treasury/webhooks.ts). A sovereign's public tag is four characters and can repeat, and a raw
 * id must not travel in a cursor: the key is when each became a patron, then a random page key of
 * the row's own (migration 0091).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { requests } from '../../helpers/http.ts';
import {
  BAD_CURSORS,
  expectCursorsRefused,
  walkBack,
  walkForward,
  type PageBody,
} from '../../helpers/paging.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);

let n = 0;
/** Patrons who became patrons at `since`, each with its kind and public tag or handle. */
async function patron(since: string, kind: 'sovereign' | 'agent', publicRef: string, listed = true) {
  n++;
  await t.database.db.query(
    `insert into treasury_patrons (holder_kind, holder_ref, public_ref, listed, units, since)
     values ($1, $2, $3, $4, 1, $5::timestamptz)`,
    [kind, kind === 'agent' ? publicRef : `sov_raw_${n}`, publicRef, listed, since],
  );
}

type Listed = { actor: { kind: string; ref: string; display: string }; since: string };
const listedOf = (body: PageBody) => (body as PageBody & { listed: Listed[] }).listed;

describe('/api/patrons', () => {
  it('walks every listed patron once, in order, ties and a late arrival included; previous walks back', async () => {
    const tie = '2026-11-01 10:00:00.123456+00';
    await patron(tie, 'sovereign', 'ab12');
    await patron(tie, 'sovereign', 'ab12'); // another sovereign with the same tag, the same microsecond
    await patron(tie, 'agent', 'ab12'); // a handle that spells the same tag
    await patron('2026-11-01 10:00:00.123457+00', 'sovereign', 'aa00');
    await patron('2026-11-02 09:00:00+00', 'agent', 'lamplighter');
    await patron('2026-11-02 09:30:00+00', 'sovereign', 'zz99', false); // not listed: never shown
    await patron('2026-11-03 12:30:00+00', 'sovereign', 'cd34');
    const walked = await walkForward(get, '/api/patrons?limit=2', listedOf, async (page) => {
      if (page === 1) await patron('2026-11-20 00:00:00+00', 'sovereign', 'ef56');
    });
    expect(walked.pages).toBe(4);
    const kinds = walked.items.map((p) => p.actor.kind);
    expect(kinds.filter((k) => k === 'agent')).toHaveLength(2);
    const times = walked.items.map((p) => p.since);
    expect(times).toEqual([...times].sort());
    expect(times.at(-1)).toBe('2026-11-20T00:00:00.000Z');
    // Seven listed, the late one included, the unlisted one never, and each once: the two
    // sovereigns who share a tag and a moment both appear (told apart by nothing public).
    expect(walked.items).toHaveLength(7);
    expect(walked.items.filter((p) => p.actor.display.includes('ab12'))).toHaveLength(3);
    expect(JSON.stringify(walked.items)).not.toContain('zz99');
    expect(JSON.stringify(walked.items)).not.toContain('sov_raw_');
    const back = await walkBack(get, walked.last, listedOf);
    expect(back).toEqual(walked.items);
  });

  it('answers 100 unless asked, at most 500, and refuses a cursor it did not write', async () => {
    const first = (await get('/api/patrons')).json();
    expect(first).toMatchObject({ limit: 100, previous: null, next: null });
    expect((await get('/api/patrons?limit=501')).statusCode).toBe(400);
    const notAnInstant = (since: string) =>
      Buffer.from(JSON.stringify(['n', since, 'f3a1c2'])).toString('base64url');
    await expectCursorsRefused(get, '/api/patrons', [
      ...BAD_CURSORS,
      notAnInstant('2026-02-30T10:00:00.000000Z'),
      notAnInstant('2026-11-01T24:00:00.000000Z'),
      notAnInstant('0000-01-01T00:00:00.000000Z'),
      notAnInstant('2026-11-01T10:00:00Z'),
    ]);
  });
});
