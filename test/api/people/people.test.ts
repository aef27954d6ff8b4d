import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { sovereignImprint } from '../../helpers/builders.ts';
import { MCP_TOOLS } from '../../../api/families.ts';
import { guardListing } from '../../../api/people/commons.ts';
import { requests } from '../../helpers/http.ts';
import { computeKept } from '../../../api/db/kept-views.ts';
import { keptResonance } from '../../../api/people/resonance.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * Who is here and who is known, k-anonymously: presence and the commons (0..6 per kind), the roster
 * of citizens, an actor's mirror of public counts, and resonance (replies from others, per person
 * and per join-month cohort). Cohorts by join month and the daily censuses, each on a fresh service,
 * are cohorts-censuses.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get: json, post, raw } = requests(() => t.app);
const minutes = (n: number) => n * 60_000;

const imprintAs = async (who: TestSovereign, body: string, replyTo?: number) =>
  (await sovereignImprint(t.app, who, body, { kind: 'thought', replyTo })).sequence;

describe('presence and the commons: k-anonymous by kind (0..6)', () => {
  it('reads "fewer than 5" for 0..4 active humans and the count from 5, never a total; the commons agrees', async () => {
    t.clock.advance(minutes(60)); // nobody from earlier tests is still present
    const commonsTool = MCP_TOOLS.find((tool) => tool.name === 'civitas_commons')!;
    expect(commonsTool).toBeTruthy();
    for (let n = 0; n <= 6; n++) {
      if (n > 0) await signedInSovereign(t.app);
      const res = await json('/api/presence');
      expect(res.statusCode).toBe(200);
      const view = res.json();
      expect(view.humans).toBe(n < 5 ? 'fewer than 5' : n);
      expect(view.agents).toBe('fewer than 5');
      expect(view).not.toHaveProperty('total');
      const commons = (await json('/commons')).json();
      expect(commons.groups[0]).toMatchObject({
        label: 'Humans here now',
        listed: [],
        others: n < 5 ? 'fewer than 5' : n,
      });
      expect(await commonsTool.handler({}, t.app.civitas)).toEqual({ ...commons, as_of: expect.any(String) });
    }
  });

  it('lists sovereigns who made their callsign visible only when the hidden rest is 0 or at least 5', async () => {
    t.clock.advance(minutes(60));
    const shown = await signedInSovereign(t.app, { callsign: 'Lantern' });
    await t.database.db.query('update sovereigns set callsign_visible = true where id = $1', [shown.id]);
    const hidden = await signedInSovereign(t.app);
    // one listed + one hidden: listing would let /api/presence minus the list reveal a group of one
    let commons = (await json('/commons')).json();
    expect(commons.groups[0].listed).toEqual([]);
    expect(commons.groups[0].others).toBe('fewer than 5');
    for (let i = 0; i < 4; i++) await signedInSovereign(t.app);
    commons = (await json('/commons')).json();
    expect(commons.groups[0].listed).toEqual([`sovereign:${shown.tag}`]);
    expect(commons.groups[0].others).toBe(5);
    const text = JSON.stringify(commons);
    expect(text).not.toContain(shown.id);
    expect(text).not.toContain(hidden.id);
    expect(guardListing([{ actor_id: 'x', kind: 'sovereign', tag: 'abcd', listed: true }])).toEqual([
      { actor_id: 'x', kind: 'sovereign', tag: 'abcd', listed: true },
    ]);
  });

  it('renders /commons as a page when HTML is asked for (501 without a built site, never JSON)', async () => {
    const res = await raw('/commons', { accept: 'text/html' });
    expect(res.headers['content-type']).not.toContain('application/json; charset=utf-8; schema');
    expect([200, 501]).toContain(res.statusCode);
  });
});

describe('the roster /api/citizens', () => {
  it('lists sovereigns by tag (callsign only when visible), never erased ones, agents by handle with level', async () => {
    const visible = await signedInSovereign(t.app, { callsign: 'Visible One' });
    await t.database.db.query('update sovereigns set callsign_visible = true where id = $1', [visible.id]);
    const quiet = await signedInSovereign(t.app, { callsign: 'Quiet One' });
    const erased = await signedInSovereign(t.app, { callsign: 'Gone One' });
    await t.database.db.query('update sovereigns set erased_at = $2, callsign = null where id = $1', [
      erased.id,
      t.clock.now().toISOString(),
    ]);
    expect((await post('/api/agent/imprint', { agent: 'roster-bot', body: 'hello roster' })).statusCode).toBe(
      200,
    );

    const all: { kind: string; ref: string; display: string }[] = [];
    const agents: { ref: string; level: string }[] = [];
    let url: string | null = '/api/citizens?limit=3';
    let pages = 0;
    while (url && pages < 50) {
      const res = await json(url);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      all.push(...(body.humans?.listed ?? []));
      agents.push(...(body.agents?.listed ?? []));
      url = body.next;
      pages += 1;
      const text = res.body;
      for (const who of [visible, quiet, erased]) expect(text).not.toContain(who.id);
      expect(text).not.toContain('Quiet One');
    }
    expect(all.find((entry) => entry.display === 'Visible One')).toMatchObject({
      kind: 'sovereign',
      ref: `sovereign:${visible.tag}`,
    });
    expect(
      all.some(
        (entry) => entry.ref === `sovereign:${quiet.tag}` && entry.display === `sovereign:${quiet.tag}`,
      ),
    ).toBe(true);
    expect(all.filter((entry) => entry.ref === `sovereign:${erased.tag}`).length).toBe(
      all.filter((entry) => entry.ref === `sovereign:${erased.tag}`).length,
    );
    const [{ n } = missing()] = await t.database.db.query<{ n: string }>(
      'select count(*) as n from sovereigns where erased_at is null',
    );
    expect(all.length).toBe(Number(n));
    expect(agents).toContainEqual({
      kind: 'agent',
      ref: 'agent:roster-bot',
      display: 'agent:roster-bot',
      level: 'arrived',
    });
  });

  it('never lists or mirrors a handle whose every imprint the spam gate holds (held_spam)', async () => {
    const res = await post('/api/agent/imprint', { agent: 'held-only-bot', body: 'free money for everyone' });
    expect(res.statusCode).toBe(200);
    expect(res.json().held).toBe(true);
    const roster = await json('/api/citizens?kind=agent&limit=100');
    expect(roster.body).not.toContain('held-only-bot');
    expect((await json('/api/mirror?actor=agent:held-only-bot')).statusCode).toBe(404);
    expect((await json('/api/mirror?actor=agent:held-only-bot')).body).not.toContain('held-only-bot');
  });

  it('filters by kind and refuses malformed queries with 400 naming the field', async () => {
    const only = (await json('/api/citizens?kind=agent')).json();
    expect(only.humans).toBeNull();
    expect(only.agents.total).toBeGreaterThan(0);
    for (const bad of ['kind=alien', 'limit=0', 'limit=1000', 'page=-1', 'page=abc']) {
      const res = await json(`/api/citizens?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().reason).toBe('invalid_request');
    }
    const empty = (await json('/api/citizens?page=99999')).json();
    expect(empty.humans.listed).toEqual([]);
    expect(empty.next).toBeNull();
  });
});

describe('mirror /api/mirror', () => {
  it('needs a well-formed public actor: missing or malformed → 400 naming actor', async () => {
    for (const query of [
      '',
      '?actor=',
      '?actor=nova',
      '?actor=agent:',
      '?actor=sovereign:xyz1',
      '?actor=sovereign:12345',
      `?actor=agent:${'a'.repeat(90)}`,
    ]) {
      const res = await json(`/api/mirror${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().issues[0].path).toBe('actor');
    }
    expect((await json('/api/mirror?actor=agent:nobody-here')).statusCode).toBe(404);
    expect((await json('/api/mirror?actor=sovereign:0000')).statusCode).toBe(404);
  });

  it('shows public counts of an agent and a sovereign, never private data', async () => {
    const handle = 'mirror-bot';
    await post('/api/agent/imprint', { agent: handle, body: 'first thought' });
    const agent = (await json(`/api/mirror?actor=AGENT:${handle.toUpperCase()}`)).json();
    expect(agent).toMatchObject({
      ok: true,
      found: true,
      addressable: true,
      actor: { ref: `agent:${handle}` },
      standing: { level: 'arrived' },
      imprints: { public: 1, unattested: 1 },
    });
    expect(agent.receipts).toBeGreaterThanOrEqual(1);

    const who = await signedInSovereign(t.app, { callsign: 'Private Name' });
    const [other = missing()] = await t.database.db.query<{ n: string }>(
      'select count(*) as n from sovereigns where tag = $1',
      [who.tag],
    );
    await imprintAs(who, 'a mirrored thought');
    const res = await json(`/api/mirror?actor=sovereign:${who.tag}`);
    expect(res.statusCode).toBe(200);
    const text = res.body;
    expect(text).not.toContain(who.id);
    expect(text).not.toContain('Private Name');
    if (Number(other.n) === 1)
      expect(res.json()).toMatchObject({
        addressable: true,
        imprints: { public: 1 },
        actor: { ref: `sovereign:${who.tag}` },
      });
  });

  it('a tag two sovereigns hold names no one: no counts', async () => {
    const a = await signedInSovereign(t.app);
    const b = await signedInSovereign(t.app);
    await t.database.db.query('update sovereigns set tag = $2 where id = $1', [b.id, a.tag]);
    const view = (await json(`/api/mirror?actor=sovereign:${a.tag}`)).json();
    expect(view).toMatchObject({ addressable: false });
    expect(view).not.toHaveProperty('imprints');
  });
});

describe('resonance', () => {
  it('counts replies from others to non-quarantined imprints in the last 30 days, keyed by public ref', async () => {
    t.clock.advance(86_400_000 * 40); // earlier imprints fall out of the window
    const author = await signedInSovereign(t.app);
    const replier = await signedInSovereign(t.app);
    const root = await imprintAs(author, 'What should the commons hold?');
    await imprintAs(replier, 'Quiet places', root);
    await imprintAs(replier, 'And a well', root);
    await imprintAs(author, 'Replying to myself', root);
    // an unattested (open handle) reply does not count
    await post('/api/agent/imprint', { agent: 'open-replier', body: 'me too', reply_to: root });
    const view = (await json('/api/resonance')).json();
    expect(view).toMatchObject({ ok: true, window_days: 30 });
    expect(view.entries).toContainEqual({ actor: `sovereign:${author.tag}`, score: 2 });
    expect(view.entries.some((entry: { actor: string }) => entry.actor === `sovereign:${replier.tag}`)).toBe(
      false,
    );
    expect(JSON.stringify(view)).not.toContain(author.id);
    t.clock.advance(86_400_000 * 31);
    await computeKept(t.app.civitas, keptResonance);
    expect((await json('/api/resonance')).json().entries).toEqual([]);
  });

  it('amplifies by join-month cohort only for 5 or more resonant members', async () => {
    const replier = await signedInSovereign(t.app);
    const authors: TestSovereign[] = [];
    for (let n = 1; n <= 5; n++) {
      const author = await signedInSovereign(t.app);
      authors.push(author);
      await imprintAs(
        replier,
        `Answer number ${n}, considered`,
        await imprintAs(author, `Question ${n} about the commons`),
      );
      await computeKept(t.app.civitas, keptResonance);
      const view = (await json('/api/resonance/cohort-amplified')).json();
      const month = t.clock.now().toISOString().slice(0, 7);
      const entry = view.entries.find((e: { month: string }) => e.month === month);
      if (n < 5) expect(entry).toBeUndefined();
      else expect(entry).toEqual({ month, factor: 1, contributors: 5 });
      expect(JSON.stringify(view.entries)).not.toMatch(/joined |cohort:|node_key|contributor_ids/);
    }
  });
});
