import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { newId } from '../ids.ts';
import type { AppContext } from '../context.ts';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../plugins/session.ts';
import type { RowOf } from '../db/rows.ts';
import type { RelayFlash } from './entities.ts';

/**
 * Showing a freshly minted relay token once after a form post (303) without keeping it: the token
 * is encrypted (AES-256-GCM) under a key derived from the minting session's cookie value, which
 * the server never stores (only its SHA-256). The /standing page reads it once with that same
 * cookie; the row is deleted on that read and expires after 10 minutes regardless.
 */
export const FLASH_TTL_MS = 10 * 60_000;

function sessionCookie(request: FastifyRequest): string | undefined {
  const name = request.server.civitas.config.origin.startsWith('https:')
    ? SECURE_SESSION_COOKIE
    : SESSION_COOKIE;
  return request.cookies?.[name];
}

const keyFrom = (cookie: string) => createHmac('sha256', cookie).update('civitas relay flash v1').digest();

export async function storeRelayFlash(
  ctx: AppContext,
  request: FastifyRequest,
  handle: string,
  token: string,
): Promise<string | null> {
  const cookie = sessionCookie(request);
  if (!cookie || !request.sovereign) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(cookie), iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  const payload = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  const now = ctx.clock.now();
  const id = newId('fl', now);
  await ctx.db.query('delete from relay_flashes where expires_at < $1', [now.toISOString()]);
  await ctx.db.query(
    'insert into relay_flashes (id, session_hash, handle, ciphertext, expires_at) values ($1, $2, $3, $4, $5)',
    [
      id,
      request.sovereign.sessionHash,
      handle,
      payload,
      new Date(now.getTime() + FLASH_TTL_MS).toISOString(),
    ],
  );
  return id;
}

/** Reads and deletes a flash; only the same session (cookie) can open it. */
export async function takeRelayFlash(
  ctx: AppContext,
  request: FastifyRequest,
  id: string,
  handle: string,
): Promise<string | null> {
  const cookie = sessionCookie(request);
  if (!cookie || !request.sovereign) return null;
  // Raw: taken once, the delete is the read.
  const [row] = await ctx.db.query<Pick<RowOf<typeof RelayFlash>, 'ciphertext'>>(
    'delete from relay_flashes where id = $1 and session_hash = $2 and handle = $3 and expires_at > $4 returning ciphertext',
    [id, request.sovereign.sessionHash, handle, ctx.clock.now().toISOString()],
  );
  if (!row) return null;
  try {
    const raw = Buffer.from(row.ciphertext, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyFrom(cookie), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
