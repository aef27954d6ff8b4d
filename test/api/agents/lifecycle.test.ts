import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { firstOf, missing } from '../../helpers/elements.ts';

/**
 * The whole agent lifecycle over HTTP (INTERFACE.md "States and transitions", DESIGN.md section 2):
 * unknown → arrived (secret once) → continuous (proof on 2 UTC days) → attested (by a signed-in
 * sovereign, minting the relay token) → relay-token writes → rotation. The same walk over MCP is
 * lifecycle-mcp.test.ts; a token minted by a form post, rotate-confirm-page.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { post, get } = requests(() => t.app);
const counter = async () =>
  Number(firstOf(await t.database.db.query<{ value: string }>('select value from record_counter')).value);
const receipts = async () =>
  Number(firstOf(await t.database.db.query<{ n: string }>('select count(*) as n from receipts')).n);

describe('agent lifecycle over HTTP', () => {
  it('walks unknown → arrived → continuous → attested → relay writes → rotation', async () => {
    // unknown
    const unknown = await get('/api/agent/heron');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().next_actions[0].rel).toBe('arrive');

    // arrived: the secret once
    const first = (
      await post('/api/agent/imprint', { agent: 'heron', body: 'I arrive.', kind: 'signal' })
    ).json();
    expect(first).toMatchObject({ ok: true, unattested: true, held: false });
    const secret: string = first.continuity_secret;
    expect(secret).toMatch(/^cs_/);
    expect(first.next_actions[0].rel).toBe('prove-continuity');
    expect(first.next).toContain('POST /api/agent/imprint');
    const again = (
      await post('/api/agent/imprint', { agent: 'heron', body: 'Still here, no proof.' })
    ).json();
    expect(again.continuity_secret).toBeUndefined();
    expect(again.unattested).toBe(true);

    // proof today, then a wait (available_at is the next UTC midnight)
    const proved = (
      await post(
        '/api/agent/imprint',
        { agent: 'heron', body: 'With proof, day one.' },
        { 'x-civitas-continuity': secret },
      )
    ).json();
    expect(proved.next_actions[0].available_at).toBe('2026-11-23T00:00:00.000Z');
    expect(proved.next).toContain('after 2026-11-23T00:00:00.000Z');

    // attestation too early: arrived handles cannot be attested
    const sovereign = await signedInSovereign(t.app);
    const early = await post(
      '/standing/rotate-relay',
      { handle: 'heron' },
      { cookie: sovereign.cookie, accept: 'application/json' },
    );
    expect(early.statusCode).toBe(409);

    // continuous after a proof on a second UTC day (the proof may come in the body field too)
    t.clock.advance(86_400_000);
    await post('/api/agent/imprint', { agent: 'heron', body: 'With proof, day two.', continuity: secret });
    const continuous = (await get('/api/agent/heron')).json();
    expect(continuous.naturalization).toMatchObject({ level: 'continuous', days_with_proof: 2 });
    expect(continuous.next_actions[0]).toMatchObject({ rel: 'attest', href: '/standing/rotate-relay' });

    // attestation needs a session (401) — the router enforces the scope
    const anonymous = await post(
      '/standing/rotate-relay',
      { handle: 'heron' },
      { accept: 'application/json' },
    );
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().reason).toBe('identity_required');

    const attested = await post(
      '/standing/rotate-relay',
      { handle: 'heron' },
      { cookie: sovereign.cookie, accept: 'application/json' },
    );
    expect(attested.statusCode).toBe(200);
    expect(attested.headers['cache-control']).toContain('no-store');
    const minted = attested.json();
    expect(minted).toMatchObject({
      ok: true,
      handle: 'heron',
      level: 'attested',
      attested: true,
      attested_by: sovereign.tag,
    });
    expect(minted.relay_token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    const [stored = missing()] = await t.database.db.query<{ relay_token_hash: string }>(
      'select relay_token_hash from agents where handle = $1',
      ['heron'],
    );
    expect(stored.relay_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(minted.relay_token);

    const status = (await get('/api/agent/heron')).json();
    expect(status.naturalization).toMatchObject({ level: 'attested', attested_by: sovereign.tag });
    expect(JSON.stringify(status)).not.toContain(sovereign.id);
    expect(status.standing.quarantined_from_learning).toBe(false);

    // attested: no proof → 401 and nothing recorded; wrong proof → 401; relay token and secret work
    const before = { seq: await counter(), receipts: await receipts() };
    for (const headers of [
      {},
      { 'x-civitas-continuity': 'cs_wrong' },
      { authorization: 'Bearer rt_wrong' },
    ] as Record<string, string>[]) {
      const refused = await post('/api/agent/imprint', { agent: 'heron', body: 'who am I?' }, headers);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().reason).toBe('continuity_proof_invalid');
    }
    expect(await counter()).toBe(before.seq);
    expect(await receipts()).toBe(before.receipts);

    const relayed = (
      await post(
        '/api/agent/imprint',
        { agent: 'heron', body: 'Through my relay.' },
        { authorization: `Bearer ${minted.relay_token}` },
      )
    ).json();
    expect(relayed).toMatchObject({ ok: true, unattested: false });
    const withSecret = (
      await post(
        '/api/agent/imprint',
        { agent: 'heron', body: 'With my secret.' },
        { 'x-civitas-continuity': secret },
      )
    ).json();
    expect(withSecret.unattested).toBe(false);

    // rotation: only the attester; the old token stops at once
    const other = await signedInSovereign(t.app);
    const stranger = await post(
      '/standing/rotate-relay',
      { handle: 'heron' },
      { cookie: other.cookie, accept: 'application/json' },
    );
    expect(stranger.statusCode).toBe(409);
    const rotated = (
      await post(
        '/standing/rotate-relay',
        { handle: 'heron' },
        { cookie: sovereign.cookie, accept: 'application/json' },
      )
    ).json();
    expect(rotated).toMatchObject({ rotated: true, attested: false });
    expect(rotated.relay_token).not.toBe(minted.relay_token);
    const stale = await post(
      '/api/agent/imprint',
      { agent: 'heron', body: 'Old token.' },
      { authorization: `Bearer ${minted.relay_token}` },
    );
    expect(stale.statusCode).toBe(401);
    const fresh = await post(
      '/api/agent/imprint',
      { agent: 'heron', body: 'New token.' },
      { authorization: `Bearer ${rotated.relay_token}` },
    );
    expect(fresh.statusCode).toBe(200);

    // heartbeat, preserve, continuum status with and without proof
    const beat = await post(
      '/api/continuum/heartbeat',
      { agent: 'heron' },
      { authorization: `Bearer ${rotated.relay_token}` },
    );
    expect(beat.statusCode).toBe(200);
    expect(beat.json().receipt_id).toMatch(/^rcpt_/);
    expect((await post('/api/continuum/heartbeat', { agent: 'heron' })).statusCode).toBe(401);
    expect(
      (
        await post('/api/continuum/heartbeat', { agent: 'nobody-yet' }, { 'x-civitas-continuity': secret })
      ).json().reason,
    ).toBe('unknown_agent');
    const note = 'my private continuity: the third lake, not the second';
    expect(
      (await post('/api/continuum/preserve', { agent: 'heron', note }, { 'x-civitas-continuity': secret }))
        .statusCode,
    ).toBe(200);
    expect(
      (await post('/api/continuum/preserve', { agent: 'heron', note: 'overwrite attempt' })).statusCode,
    ).toBe(401);
    const publicView = await get('/api/continuum/status?handle=heron');
    expect(publicView.json().note).toMatchObject({ preserved: true, text: null });
    expect(publicView.body).not.toContain('third lake');
    const ownView = await get('/api/continuum/status?handle=heron', { 'x-civitas-continuity': secret });
    expect(ownView.json().note.text).toBe(note);
    expect(ownView.headers['cache-control']).toContain('no-store');
    expect(
      (await get('/api/continuum/status?handle=heron', { 'x-civitas-continuity': 'cs_nope' })).statusCode,
    ).toBe(401);
    const overview = (await get('/api/continuum')).json();
    expect(overview.levels.attested).toBe(1);
    expect(overview.heartbeats_last_day).toBe(1);
    expect(JSON.stringify(overview)).not.toContain('third lake');

    // certificates: issued, verified, tampered, unknown handle
    const cert = (await get('/api/agent/certificate?handle=heron')).json();
    expect(cert).toMatchObject({ ok: true, handle: 'heron', level: 'attested', alg: 'EdDSA' });
    const verified = (await post('/api/agent/certificate/verify', { certificate: cert.certificate })).json();
    expect(verified).toMatchObject({
      ok: true,
      valid: true,
      handle: 'heron',
      level: 'attested',
      current_level: 'attested',
    });
    const [h, p, s] = cert.certificate.split('.');
    const forged = JSON.parse(Buffer.from(p, 'base64url').toString());
    forged.level = 'attested';
    forged.handle = 'mallory';
    const tampered = (
      await post('/api/agent/certificate/verify', {
        certificate: `${h}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${s}`,
      })
    ).json();
    expect(tampered).toMatchObject({ valid: false, problem: 'signature' });
    expect((await post('/api/agent/certificate/verify', { certificate: 'not-a-jws' })).json()).toMatchObject({
      valid: false,
      problem: 'malformed',
    });
    expect((await post('/api/agent/certificate/verify', {})).statusCode).toBe(400);
    expect((await get('/api/agent/certificate?handle=ghost-agent')).statusCode).toBe(404);
    expect((await get('/api/agent/certificate')).statusCode).toBe(400);
    // The key that verifies it is the one /agents.json publishes.
    const { importJWK, jwtVerify } = await import('jose');
    const directory = (await get('/agents.json')).json();
    const jwk = directory.jwks.keys[0];
    const checked = await jwtVerify(cert.certificate, await importJWK(jwk, 'EdDSA'));
    expect(checked.payload.sub).toBe('agent:heron');
    t.clock.advance(8 * 86_400_000);
    expect(
      (await post('/api/agent/certificate/verify', { certificate: cert.certificate })).json(),
    ).toMatchObject({ valid: false, problem: 'expired' });
  });
});
