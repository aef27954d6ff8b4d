/**
 * Confluences from stored state: a thread a Sovereign opened that five distinct others join within
 * a day. Shown in presence, the commons (JSON and MCP), the due feeds and the card — always
 * through the confluence_slug projector (no callsign root, slug or raw id anywhere).
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS } from '../../../api/families.ts';
import { callsignRoot, confluenceTitle, currentConfluences } from '../../../api/people/confluences.ts';
import { confluenceCard } from '../../../api/people/confluence-card.ts';
import { projectConfluence } from '../../../shared/boundaries/projectors/gatherings.ts';
import { renderCardSvg } from '../../../cards/render.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { sovereignImprint } from '../../helpers/builders.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { at, missing } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  // With the built site mounted, so the /commons and /today pages are read too (npm test builds first).
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

const HOUR = 3_600_000;
const { get: json } = requests(() => t.app);

async function imprintAs(who: TestSovereign, body: string, replyTo?: number): Promise<number> {
  const made = await sovereignImprint(t.app, who, body, { kind: 'thought', replyTo });
  expect(made.held).toBe(false);
  return made.sequence;
}

const tool = (name: string) => MCP_TOOLS.find((candidate) => candidate.name === name)!;

describe('confluences', () => {
  let convener: TestSovereign;
  let root: number;
  const others: TestSovereign[] = [];

  it('do not form below five distinct others: the convener, unattested voices and repeats do not count', async () => {
    convener = await signedInSovereign(t.app, { callsign: 'Harbor-7' });
    root = await imprintAs(convener, 'Who is up for an evening of questions about the Record?\nBring one.');
    for (let i = 0; i < 4; i++) others.push(await signedInSovereign(t.app));
    let previous = root;
    for (const other of others) previous = await imprintAs(other, 'Here, with a question.', previous);
    await imprintAs(at(others, 0), 'And a second one from me.', root);
    await imprintAs(convener, 'Welcome, all.', root);
    const open = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'gathering-bot', body: 'Counting myself in.', reply_to: root },
    });
    expect(open.statusCode).toBe(200);
    expect(open.json().unattested).toBe(true);

    expect(await currentConfluences(t.app.civitas)).toEqual([]);
    expect((await json('/api/presence')).json().confluences).toEqual([]);
  });

  it('form at the fifth distinct participant (a nested reply counts) and show on presence, the commons and MCP', async () => {
    const fifth = await signedInSovereign(t.app);
    const [firstReply = missing()] = await t.database.db.query<{ sequence: string }>(
      'select min(sequence)::text as sequence from imprints where reply_to = $1',
      [root],
    );
    await imprintAs(fifth, 'Joining late.', Number(firstReply.sequence));
    others.push(fifth);

    const opened = new Date(t.clock.now());
    const presence = (await json('/api/presence')).json();
    expect(presence.confluences).toHaveLength(1);
    const [view] = presence.confluences;
    expect(view).toEqual({
      id: `confluence-${root}`,
      title: 'Who is up for an evening of questions about the Record?',
      convener: `sovereign:${convener.tag}`,
      starts_at: expect.any(String),
      ends_at: expect.any(String),
      participants: { humans: 5, agents: 'fewer than 5' },
    });
    expect(new Date(view.ends_at).getTime() - new Date(view.starts_at).getTime()).toBe(24 * HOUR);
    expect(new Date(view.starts_at).getTime()).toBeLessThanOrEqual(opened.getTime());

    const commons = (await json('/commons')).json();
    expect(commons.confluences).toEqual([view]);
    expect(await tool('civitas_presence').handler({}, t.app.civitas)).toMatchObject({ confluences: [view] });
    expect(await tool('civitas_commons').handler({}, t.app.civitas)).toMatchObject({ confluences: [view] });

    const today = (await json('/today')).json();
    expect(today.confluences).toEqual([view]);
    const page = await t.app.inject({ method: 'GET', url: '/commons', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Who is up for an evening of questions about the Record?');
    expect(page.body).toContain(`sovereign:${convener.tag}`);
    expect(page.body.toLowerCase()).not.toContain('harbor');

    const published = JSON.stringify([presence, commons, today]);
    expect(published.toLowerCase()).not.toContain('harbor');
    expect(published).not.toContain(`harbor-${root}`);
    for (const who of [convener, ...others]) expect(published).not.toContain(who.id);

    // The stored record does carry the private parts the projector drops.
    const [record = missing()] = await currentConfluences(t.app.civitas);
    expect(record.slug).toBe(`harbor-${root}`);
    expect(record.participant_ids).toHaveLength(5);
  });

  it('draws the card from the projection only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/confluence/card.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.body.startsWith('<svg')).toBe(true);
    const view = (await json('/api/presence')).json().confluences;
    const card = confluenceCard(view);
    expect(card.title).toBe('One confluence is gathering');
    expect(card.lines).toEqual([
      `5 humans, fewer than 5 agents joined · sovereign:${convener.tag} · Who is up for an evening of questions about the R`.slice(
        0,
        90,
      ),
    ]);
    const text = JSON.stringify(card);
    expect(text.toLowerCase()).not.toContain('harbor');
    expect(text).not.toContain(convener.id);
    expect(confluenceCard([]).title).toBe('No confluence is gathering now');
    expect(res.body).not.toBe(await renderCardSvg(confluenceCard([])));
  });

  it("come due in the convener's and a participant's feeds (iCalendar parsed, Atom), not in a stranger's", async () => {
    const calendar = await t.app.inject({
      method: 'GET',
      url: '/sovereign/due.ics',
      headers: { cookie: convener.cookie },
    });
    expect(calendar.statusCode).toBe(200);
    const events = new ICAL.Component(ICAL.parse(calendar.body))
      .getAllSubcomponents('vevent')
      .map((e) => new ICAL.Event(e));
    const event = events.find((e) => e.uid === `confluence-${root}@civitas`);
    expect(event?.summary).toBe(
      'Your confluence closes: Who is up for an evening of questions about the Record?',
    );
    const view = (await json('/api/presence')).json().confluences[0];
    expect(event?.startDate.toJSDate().toISOString()).toBe(view.ends_at);
    expect(calendar.body.toLowerCase()).not.toContain('harbor');

    const atom = await t.app.inject({
      method: 'GET',
      url: '/sovereign/due.xml',
      headers: { cookie: at(others, 4).cookie },
    });
    expect(atom.statusCode).toBe(200);
    expect(atom.body).toContain('A confluence you joined closes: Who is up for an evening');
    expect(atom.body).not.toContain(convener.id);

    const stranger = await signedInSovereign(t.app);
    expect(
      (await t.app.inject({ method: 'GET', url: '/sovereign/due.xml', headers: { cookie: stranger.cookie } }))
        .body,
    ).not.toContain('confluence');
  });

  it('end when their day is over; an erased convener convenes nothing', async () => {
    t.clock.advance(23 * HOUR);
    expect((await json('/api/presence')).json().confluences).toHaveLength(1);
    await t.database.db.query('update sovereigns set erased_at = $2 where id = $1', [
      convener.id,
      t.clock.now().toISOString(),
    ]);
    expect((await json('/api/presence')).json().confluences).toEqual([]);
    await t.database.db.query('update sovereigns set erased_at = null where id = $1', [convener.id]);
    t.clock.advance(2 * HOUR);
    expect((await json('/api/presence')).json().confluences).toEqual([]);
    expect((await json('/commons')).json().confluences).toEqual([]);
  });

  it('count only replies made within the day the root opened', async () => {
    const host = await signedInSovereign(t.app);
    const opening = await imprintAs(host, 'A slow gathering.');
    const late: TestSovereign[] = [];
    for (let i = 0; i < 4; i++) late.push(await signedInSovereign(t.app));
    for (const who of late) await imprintAs(who, 'In time.', opening);
    t.clock.advance(24 * HOUR + 1000);
    await imprintAs(await signedInSovereign(t.app), 'Too late.', opening);
    expect(await currentConfluences(t.app.civitas)).toEqual([]);
  });

  it('count humans and agents who joined as separate kinds, never one number (INTERFACE.md item 2)', () => {
    const record = {
      id: 'confluence-1',
      slug: 'harbor-1',
      title: 'A mixed gathering',
      convener: { actor_id: 'c', kind: 'sovereign' as const, tag: 'a1f3' },
      callsign_root: 'harbor',
      starts_at: '2026-11-22T12:00:00.000Z',
      ends_at: '2026-11-23T12:00:00.000Z',
      participant_ids: [
        ...[1, 2, 3, 4, 5, 6].map((i) => `sovereign:s${i}`),
        ...[1, 2, 3, 4, 5].map((i) => `agent:bot-${i}`),
      ],
    };
    expect(projectConfluence(record).participants).toEqual({ humans: 6, agents: 5 });
    const few = { ...record, participant_ids: record.participant_ids.slice(3) };
    expect(projectConfluence(few).participants).toEqual({ humans: 'fewer than 5', agents: 5 });
  });

  it('derive title and callsign root from stored text', () => {
    expect(callsignRoot('Harbor-7')).toBe('harbor');
    expect(callsignRoot('Lantern')).toBe('lantern');
    expect(callsignRoot(null)).toBe('sovereign');
    expect(confluenceTitle(12, null)).toBe('Gathering on imprint #12');
    expect(confluenceTitle(12, `  ${'x'.repeat(80)}`)).toHaveLength(60);
  });
});
