import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isSharedAnswer } from '../../shared/coalesce.ts';

/**
 * JSON answers, serialized once per object. A coalesced read (shared/coalesce.ts: a census,
 * the stats, an agent's status) hands the same answer object to every request of its run, so
 * stringifying it per request would repeat the same work (a 7 KB census, fifty times per run).
 * Its text is made on the first send and reused by the rest of the run, then dropped with the
 * object. Any other payload is stringified as Fastify's default does.
 */
const texts = new WeakMap<object, string>();

export function serializeAnswer(payload: unknown): string {
  if (!isSharedAnswer(payload)) return JSON.stringify(payload);
  let text = texts.get(payload);
  if (text === undefined) texts.set(payload, (text = JSON.stringify(payload)));
  return text;
}

async function serializeOnce(app: FastifyInstance) {
  app.setReplySerializer(serializeAnswer);
}

export default fp(serializeOnce, { name: 'civitas-serialize-once' });
