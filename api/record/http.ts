import type { FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../shared/errors.ts';
import { safeReturnTarget } from '../../shared/security.ts';
import { wantsJson } from '../route.ts';

/** A browser form post (urlencoded, not asking for JSON): answered with 303 to a local page. */
export function isFormPost(request: FastifyRequest): boolean {
  const type = String(request.headers['content-type'] ?? '');
  return type.startsWith('application/x-www-form-urlencoded') && !wantsJson(request);
}

/** The post-action target: the local `return_to` if given (off-origin refused), else `fallback`. */
export function returnTarget(value: unknown, fallback: string): string {
  if (value === undefined || value === null || value === '') return fallback;
  const local = safeReturnTarget(value);
  if (!local) throw new Refusal('off_origin_target');
  return local;
}

export function withQuery(target: string, params: Record<string, string | number>): string {
  const [path, hash] = target.split('#');
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return `${path}${path.includes('?') ? '&' : '?'}${query}${hash !== undefined ? `#${hash}` : ''}`;
}

export function seeOther(reply: FastifyReply, location: string) {
  return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}
