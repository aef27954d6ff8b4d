import type { FastifyInstance } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { createSovereign, type CreatedSovereign } from '../../api/identity/sovereigns.ts';
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from '../../api/plugins/session.ts';

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
