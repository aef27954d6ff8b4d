import type { FastifyInstance } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { createSovereign, type CreatedSovereign } from '../../api/identity/sovereigns.ts';
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from '../../api/plugins/session.ts';
import { expect } from 'vitest';
import { TEST_ORIGIN } from './app.ts';

export interface TestSovereign extends CreatedSovereign {
  /** A ready `cookie` header value for app.inject. */
  cookie: string;
}

/**
 * A signed-in sovereign made directly (no HTTP crossing), for tests of other families.
 * `steward` and `governance` grant those scopes the way production does: by the stored
 * uniqueness receipt, or by the configured steward list (pass the tag in config.stewards).
 */
export async function signedInSovereign(
  app: FastifyInstance,
  options: { callsign?: string; governance?: boolean } = {},
): Promise<TestSovereign> {
  const ctx = app.civitas;
  const sovereign = await createSovereign(ctx, { callsign: options.callsign });
  if (options.governance) {
    await ctx.db.query('update sovereigns set uniqueness_verified_at = $2 where id = $1', [
      sovereign.id,
      ctx.clock.now().toISOString(),
    ]);
  }
  const value = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.db.query(
    'insert into sessions (id_hash, sovereign_id, created_at, last_used_at, expires_at) values ($1, $2, $3, $3, $4)',
    [
      createHash('sha256').update(value).digest('hex'),
      sovereign.id,
      now.toISOString(),
      new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    ],
  );
  return { ...sovereign, cookie: `${SESSION_COOKIE}=${value}` };
}

/** The `cookie` header value of the session an answer set (it throws when none was set). */
export function sessionCookie(res: { cookies: { name: string; value: string }[] }): string {
  const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE && c.value);
  if (!cookie) throw new Error('no session cookie');
  return `${SESSION_COOKIE}=${cookie.value}`;
}

/**
 * A person crosses through the real door (POST /initiate, from the service's own origin, asking
 * for JSON): the answer (key shown once, tag, receipt), its session cookie, and the raw response.
 */
export async function crossed(app: FastifyInstance, callsign?: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/initiate',
    headers: { origin: TEST_ORIGIN, accept: 'application/json' },
    payload: callsign ? { callsign } : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return { body: res.json(), cookie: sessionCookie(res), res };
}
