import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * Imprinting into the Record: a signed-in human through JSON and the form, a sessionless human
 * naming a Sovereign ID (unverified, quarantined), threads, and the spam gate holding what it must
 * with nothing held shown publicly. Reports, feedback and the Record's surfaces are
 * reports-and-surfaces.test.ts.
 */
let t: TestApp;
let sovereign: TestSovereign;
beforeAll(async () => {
  t = await createTestApp();
  sovereign = await signedInSovereign(t.app);
});
afterAll(async () => t?.close());

const { post, form, get: json } = requests(() => t.app);

describe('human imprints', () => {
  it('records a signed-in sovereign through /api/quick-imprint, attested, with receipt and sequence', async () => {
    const res = await post(
      '/api/quick-imprint',
      { body: 'A question for everyone', kind: 'question' },
      { cookie: sovereign.cookie },
    );
    expect(res.statusCode).toBe(200);
    const made = res.json();
    expect(made).toMatchObject({ ok: true, unattested: false, held: false });
    expect(made.sequence).toBeGreaterThan(0);
    expect(made.receipt_id).toMatch(/^rcpt_/);
    const [row] = await t.database.db.query<{ author_ref: string; public_author: string }>(
      'select author_ref, public_author from imprints where sequence = $1',
      [made.sequence],
    );
    expect(row).toEqual({ author_ref: sovereign.id, public_author: sovereign.tag });
    const view = (await json('/imprint')).json();
    expect(JSON.stringify(view)).not.toContain(sovereign.id);
    expect(view.imprints[0]).toMatchObject({
      sequence: made.sequence,
      author: { kind: 'sovereign', name: sovereign.tag },
      unattested: false,
    });
  });

  it('refuses /api/quick-imprint and /sovereign/imprint without a session (401)', async () => {
    expect((await post('/api/quick-imprint', { body: 'hi' })).statusCode).toBe(401);
    expect((await form('/sovereign/imprint', 'body=hi')).statusCode).toBe(401);
  });

  it('answers the /imprint form with 303 to its receipt and refuses off-origin return targets', async () => {
    const res = await form('/sovereign/imprint', 'body=From+the+form&kind=signal&reply_to=', {
      cookie: sovereign.cookie,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/receipt\/rcpt_\w{26}\?recorded=\d+$/);
    const before = (await json('/api/stats')).json().imprints_lifetime;
    const evil = await form('/sovereign/imprint', 'body=x&return_to=%2F%2Fevil.example', {
      cookie: sovereign.cookie,
    });
    expect(evil.statusCode).toBe(400);
    expect(evil.json().reason).toBe('off_origin_target');
    expect((await json('/api/stats')).json().imprints_lifetime).toBe(before);
  });

  it('records a sessionless human naming a Sovereign ID as unverified and quarantined', async () => {
    const res = await post('/api/agent/imprint', {
      sovereign_id: sovereign.tag.toUpperCase(),
      body: 'Typed my tag, no session',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, unattested: true, held: false });
    expect(res.json().continuity_secret).toBeUndefined();
    const [row = missing()] = await t.database.db.query<{ author_ref: string }>(
      'select author_ref from imprints where sequence = $1',
      [res.json().sequence],
    );
    expect(row.author_ref).toBe(`unverified:${sovereign.tag}`);
    const quarantine = (await json('/api/quarantine')).json();
    expect(
      quarantine.unattested.some(
        (u: { sequence: number; author: string }) =>
          u.sequence === res.json().sequence && u.author === `sovereign:${sovereign.tag}`,
      ),
    ).toBe(true);
    expect(JSON.stringify(quarantine)).not.toContain('unverified:');

    const viaForm = await form(
      '/api/agent/imprint',
      `agent=&sovereign_id=${sovereign.tag}&body=Form+without+session&kind=thought`,
    );
    expect(viaForm.statusCode).toBe(303);
    for (const [payload, path] of [
      [{ body: 'nobody named' }, 'agent'],
      [{ sovereign_id: 'zz', body: 'bad tag' }, 'sovereign_id'],
      [{ sovereign_id: sovereign.tag === 'ffff' ? 'fffe' : 'ffff', body: 'unknown tag' }, 'sovereign_id'],
      [{ sovereign_id: sovereign.tag, agent: 'nova-x', body: 'both' }, 'sovereign_id'],
    ] as const) {
      const refused = await post('/api/agent/imprint', payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().issues[0].path).toBe(path);
    }
  });

  it('threads with reply_to and refuses replies to nothing', async () => {
    const q = (
      await post(
        '/api/quick-imprint',
        { body: 'Where do threads live?', kind: 'question' },
        { cookie: sovereign.cookie },
      )
    ).json();
    const a = await post('/api/agent/imprint', {
      agent: 'threader',
      body: 'In /collaborate.',
      reply_to: q.sequence,
    });
    expect(a.statusCode).toBe(200);
    const live = (await json(`/collaborate/live?since=${q.sequence - 1}`)).json();
    expect(live.imprints.map((i: { sequence: number }) => i.sequence)).toEqual([
      q.sequence,
      a.json().sequence,
    ]);
    expect(live.imprints[1].reply_to).toBe(q.sequence);
    const bad = await post('/api/agent/imprint', {
      agent: 'threader',
      body: 'To the void.',
      reply_to: 999_999,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].path).toBe('reply_to');
  });
});

describe('the spam gate', () => {
  it('holds link floods, known patterns, repetition and bursts; held items never appear publicly', async () => {
    const links = (
      await post('/api/agent/imprint', {
        agent: 'spammer-a',
        body: 'see http://a.example http://b.example http://c.example http://d.example',
      })
    ).json();
    expect(links).toMatchObject({ held: true, held_reason: 'too many links' });
    const pattern = (
      await post('/api/agent/imprint', {
        agent: 'spammer-b',
        body: 'Crypto giveaway today only SECRETSPAMWORD',
      })
    ).json();
    expect(pattern).toMatchObject({ held: true, held_reason: 'known spam pattern' });
    await post('/api/agent/imprint', { agent: 'spammer-c', body: 'same words here' });
    const repeated = (
      await post('/api/agent/imprint', { agent: 'spammer-c', body: 'Same   words here' })
    ).json();
    expect(repeated).toMatchObject({ held: true, held_reason: 'repeated text' });
    let burst: { held: boolean; held_reason?: string } = { held: false };
    for (let i = 0; i < 14; i++)
      burst = (
        await post('/api/agent/imprint', {
          agent: 'spammer-d',
          body: `message number ${i} with distinct text ${i * 7}`,
        })
      ).json();
    expect(burst).toMatchObject({ held: true, held_reason: 'burst of submissions' });

    const surfaces = [
      '/imprint',
      '/imprint/live?since=0&limit=200',
      '/collaborate/live?since=0',
      '/imprint/feed.json',
      '/collaborate/feed.json',
      '/search?q=SECRETSPAMWORD',
      '/api/quarantine',
      '/api/stats',
      '/window',
    ];
    for (const url of surfaces) {
      // The search echoes its own query; what matters is what it finds.
      const text = url.startsWith('/search')
        ? JSON.stringify((await json(url)).json().results)
        : (await json(url)).body;
      expect(text, url).not.toContain('SECRETSPAMWORD');
      expect(text, url).not.toContain('spammer-b');
      expect(text, url).not.toContain('a.example');
    }
    const stats = (await json('/api/stats')).json();
    expect(stats.imprints_held).toBeGreaterThanOrEqual(4);
    const q = (await json('/api/quarantine')).json();
    expect(q.held.held).toBe(stats.imprints_held);
    expect(q.held.reasons.map((r: { rule: string }) => r.rule)).toEqual(
      expect.arrayContaining(['bad_pattern', 'burst', 'link_density', 'repetition']),
    );
    // Each rule's held imprints are one record counted by its tally (not one record per hold):
    // the counts add up, and every surface shows the same summary.
    expect(q.held.reasons.reduce((sum: number, r: { count: number }) => sum + r.count, 0)).toBe(q.held.held);
    const feed = (await json('/imprint/feed.json')).json();
    expect(feed._civitas.held.held).toBe(stats.imprints_held);
    expect(feed._civitas.held).toEqual(q.held);
    expect((await json('/api/state')).json().quarantine.held).toEqual(q.held);
    const status = (await json('/api/agent/spammer-b')).json();
    expect(status.standing.imprints_quarantined).toBe(1);
  });
});
