import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import type { TestSovereign } from '../../helpers/identity.ts';
import { actorTag } from '../../../shared/boundaries/address-pressure.ts';
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from '../../../api/plugins/session.ts';

/**
 * A signed-in sovereign with a chosen raw id, so configuration can name it as a steward before the
 * app starts (raw ids are exact; tags name someone only while unique).
 */
export async function sovereignWithId(t: TestApp, id: string): Promise<TestSovereign> {
  const ctx = t.app.civitas;
  const tag = await actorTag(id, ctx.keys.tagSecret);
  const now = ctx.clock.now();
  await ctx.db.query('insert into sovereigns (id, tag, created_at) values ($1, $2, $3)', [id, tag, now.toISOString()]);
  const value = randomBytes(32).toString('base64url');
  await ctx.db.query(
    'insert into sessions (id_hash, sovereign_id, created_at, last_used_at, expires_at) values ($1, $2, $3, $3, $4)',
    [createHash('sha256').update(value).digest('hex'), id, now.toISOString(), new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString()],
  );
  return { id, tag, key: '', receiptId: '', cookie: `${SESSION_COOKIE}=${value}` };
}

/** A test app with one configured steward, signed in. */
export async function appWithSteward(options: Parameters<typeof createTestApp>[0] = {}): Promise<{ t: TestApp; steward: TestSovereign }> {
  const id = randomUUID();
  const t = await createTestApp({ ...options, config: { ...options.config, stewards: [id] } });
  return { t, steward: await sovereignWithId(t, id) };
}
