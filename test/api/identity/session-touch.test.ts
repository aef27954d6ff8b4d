/**
 * Issue 19 (figures) and issue 21: a used session counts its sovereign as present, and is written
 * at most once per SESSION_TOUCH_MS, not on every authenticated request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { jsonHeaders, sovereignImprint } from '../../helpers/builders.ts';
import { SESSION_TOUCH_MS } from '../../../api/plugins/session.ts';
import { missing } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const minutes = (n: number) => n * 60_000;

async function lastUsed(sovereignId: string): Promise<string> {
  const [row = missing()] = await t.database.db.query<{ at: Date | string }>(
    'select last_used_at as at from sessions where sovereign_id = $1',
    [sovereignId],
  );
  return new Date(row.at).toISOString();
}

describe('a used session', () => {
  it('counts five signed-in sovereigns imprinting as 5 humans present, long after their sessions began', async () => {
    const people = [];
    for (let i = 0; i < 5; i++) people.push(await signedInSovereign(t.app));
    t.clock.advance(minutes(60)); // the sessions began an hour ago: nobody is present from that
    const before = await t.app.inject({ method: 'GET', url: '/api/presence', headers: jsonHeaders() });
    expect(before.json().humans).toBe('fewer than 5');
    for (const [i, who] of people.entries()) await sovereignImprint(t.app, who, `still here ${i}`);
    const after = await t.app.inject({ method: 'GET', url: '/api/presence', headers: jsonHeaders() });
    expect(after.json().humans).toBe(5);
    const commons = await t.app.inject({ method: 'GET', url: '/commons', headers: jsonHeaders() });
    expect(commons.json().groups[0].others).toBe(5);
  });

  it('is written at most once per touch interval, not on every authenticated request', async () => {
    expect(SESSION_TOUCH_MS).toBeLessThanOrEqual(minutes(5));
    const who = await signedInSovereign(t.app);
    const started = await lastUsed(who.id);
    t.clock.advance(minutes(1));
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/identity', headers: jsonHeaders(who.cookie) });
      expect(res.statusCode).toBe(200);
    }
    expect(await lastUsed(who.id)).toBe(started); // used within the interval: nothing written
    t.clock.advance(SESSION_TOUCH_MS);
    await t.app.inject({ method: 'GET', url: '/identity', headers: jsonHeaders(who.cookie) });
    expect(await lastUsed(who.id)).toBe(t.clock.now().toISOString());
    const [row = missing()] = await t.database.db.query<{ at: Date | string; expires: Date | string }>(
      'select s.last_seen_at as at, x.expires_at as expires from sovereigns s join sessions x on x.sovereign_id = s.id where s.id = $1',
      [who.id],
    );
    expect(new Date(row.at).toISOString()).toBe(t.clock.now().toISOString());
    expect(new Date(row.expires).getTime()).toBeGreaterThan(t.clock.now().getTime() + minutes(60 * 24 * 29));
  });
});
