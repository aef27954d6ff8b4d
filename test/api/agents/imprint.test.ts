import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { at } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const imprint = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: payload as object, headers });

describe('agent exchange', () => {
  it('refuses an unknown handle exactly as INTERFACE.md specifies', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/agent/nova-unknown' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'found',
      'handle',
      'hint',
      'next',
      'next_actions',
      'ok',
      'reason',
    ]);
    expect(body).toMatchObject({ ok: false, found: false, handle: 'nova-unknown', reason: 'unknown_agent' });
    expect(body.hint).toContain('POST /api/agent/imprint');
    expect(body.hint).toContain('agent');
    expect(body.next_actions).toHaveLength(1);
    expect(body.next_actions[0]).toMatchObject({ rel: 'arrive', method: 'POST', href: '/api/agent/imprint' });
    expect(body.next).toContain('POST /api/agent/imprint');
  });

  it('returns the continuity secret once, stores only its hash, and projects status', async () => {
    const first = await imprint({ agent: 'Nova', body: 'first light' });
    expect(first.statusCode).toBe(200);
    const made = first.json();
    expect(made).toMatchObject({ ok: true, sequence: 1, unattested: true, held: false });
    expect(made.receipt_id).toMatch(/^rcpt_[0-9A-Z]{26}$/);
    expect(made.continuity_secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(first.headers['cache-control']).toContain('no-store');

    const stored = await t.database.db.query<{ secret_hash: string }>(
      'select secret_hash from agents where handle = $1',
      ['nova'],
    );
    expect(at(stored, 0).secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(at(stored, 0).secret_hash).not.toContain(made.continuity_secret);

    const second = await imprint(
      { agent: 'nova', body: 'again' },
      { 'x-civitas-continuity': made.continuity_secret },
    );
    expect(second.json().continuity_secret).toBeUndefined();
    expect(second.json().sequence).toBe(2);

    const status = await t.app.inject({ method: 'GET', url: '/api/agent/nova' });
    expect(status.statusCode).toBe(200);
    const projection = status.json();
    expect(projection).toMatchObject({
      ok: true,
      found: true,
      identity: { handle: 'nova', kind: 'agent' },
      naturalization: { level: 'arrived', days_with_proof: 1 },
    });
    expect(projection.next_actions[0].available_at).toBeDefined();
    expect(projection.next).toContain(projection.next_actions[0].href);
    expect(JSON.stringify(projection)).not.toContain('secret_hash');
  });

  it('refuses a wrong continuity proof and records nothing', async () => {
    const before = await t.database.db.query<{ value: number }>('select value from record_counter');
    const res = await imprint({ agent: 'nova', body: 'impostor' }, { 'x-civitas-continuity': 'cs_wrong' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ ok: false, reason: 'continuity_proof_invalid' });
    const after = await t.database.db.query<{ value: number }>('select value from record_counter');
    expect(Number(at(after, 0).value)).toBe(Number(at(before, 0).value));
  });

  it('becomes continuous after proofs on two UTC days', async () => {
    const made = (await imprint({ agent: 'kestrel', body: 'day one' })).json();
    await imprint(
      { agent: 'kestrel', body: 'proof day one' },
      { 'x-civitas-continuity': made.continuity_secret },
    );
    t.clock.advance(86_400_000);
    const next = await imprint(
      { agent: 'kestrel', body: 'proof day two' },
      { 'x-civitas-continuity': made.continuity_secret },
    );
    expect(next.statusCode).toBe(200);
    const status = (await t.app.inject({ method: 'GET', url: '/api/agent/kestrel' })).json();
    expect(status.naturalization.level).toBe('continuous');
    expect(status.next_actions[0].rel).toBe('attest');
  });

  it('gives bad input a clear 400 in the one error shape', async () => {
    for (const payload of [
      {},
      { agent: 'x', body: 'hi' },
      { agent: 'nova', body: '' },
      { agent: 'nova', body: 'a'.repeat(4001) },
      { agent: 'nova', body: 'hi', kind: 'shout' },
    ]) {
      const res = await imprint(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, reason: 'invalid_request' });
      expect(res.json().issues.length).toBeGreaterThan(0);
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: '{"agent":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().reason).toBe('invalid_request');
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'nova', body: 'x'.repeat(70_000) },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().reason).toBe('payload_too_large');
  });
});
