import { createRequire } from 'node:module';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { withVary } from './negotiation.ts';

/** Below this many bytes the coding costs more than it saves (and an ETag/304 is as cheap). */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Text the service makes: HTML, CSS, JS, plain text, iCalendar, JSON (JSON Feed, problem, manifest),
 * XML (Atom, RSS, sitemap) and SVG, and the ICO favicon (a bitmap). Never PNG, fonts or anything
 * already compressed, and never an event stream (SSE must flush each event as it is written).
 */
const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)[\w.+-]+|image\/(?:svg\+xml|x-icon|vnd\.microsoft\.icon)|application\/(?:[\w.-]+\+)?(?:json|xml)|application\/javascript)\s*(?:;|$)/i;

/** The media types database @fastify/compress also asks when its own rule says no. */
const MEDIA_TYPES = createRequire(import.meta.url)('mime-db') as Record<string, { compressible?: boolean }>;

/**
 * True when answers of this content type are sent br or gzip to a client that accepts it: exactly
 * @fastify/compress's decision (the rule above, else mime-db's `compressible`), so the Vary and weak
 * ETag below are given to every answer it may code and to no other.
 */
export function compressibleType(contentType: unknown): boolean {
  // @fastify/compress treats an answer without a type as JSON; so does this rule.
  const type = contentType === undefined ? 'application/json' : String(contentType);
  if (COMPRESSIBLE.test(type)) return true;
  return MEDIA_TYPES[type.split(';', 1)[0]!.trim().toLowerCase()]?.compressible === true;
}

/**
 * br or gzip for the answers the service makes (dynamic HTML, JSON, SVG, feeds and the site's text
 * assets), chosen by `Accept-Encoding` through @fastify/compress; answers under 1 KB (which keep
 * their strong tag and no Vary), images other than SVG, fonts and event streams go as they are. Routes that hijack the reply (MCP, SSE) never
 * reach an onSend hook, so they are untouched.
 *
 * Caching stays exact: every answer it may code says `Vary: accept-encoding` (whichever coding this
 * request got, and on its 304), and its entity tag is weak — the coded bytes differ per
 * coding while the tag was made from the unencoded ones (api/plugins/http-cache.ts, the site's
 * stored files), and a weak tag is the one honest for all of them (RFC 9110 8.8.1). The 304 check
 * compares weakly, so the tag a client got with a br answer still earns its 304. A handler that
 * codes its own bytes (/openapi.json: one strong tag per coding) sets Content-Encoding and Vary
 * itself and is left alone, as is an answer already varying by coding (relayed by the site server).
 *
 * Registered after the hooks that set ETags and 304s (http-cache, negotiation): its onSend runs
 * after theirs, and @fastify/compress's own (a route-level hook) after it.
 */
async function compression(app: FastifyInstance) {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (codedHere(reply, payload)) varyByCoding(reply);
    done(null, payload);
  });
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_MIN_BYTES,
    customTypes: (type: string) => COMPRESSIBLE.test(type),
    // Request bodies stay as sent: the body limits and strict parsers judge the bytes on the wire.
    globalDecompression: false,
  });
}

/** The unencoded size of the answer a 304 stands for (its body is gone by the time this runs). */
const revalidatedBytes = new WeakMap<FastifyReply, number>();

/**
 * Called by whoever turns an answer into a 304 (api/plugins/http-cache.ts, the site's stored files),
 * with the body the 200 would have carried: the 304 then gets the same Vary and tag as that 200.
 */
export function noteRevalidated(reply: FastifyReply, body: string | Buffer): void {
  revalidatedBytes.set(reply, Buffer.byteLength(body));
}

/**
 * An answer @fastify/compress may code (its type, and not under the threshold: a stream's size is
 * unknown, so it may), whose handler did not already choose among codings.
 */
function codedHere(reply: FastifyReply, payload: unknown): boolean {
  if (reply.hasHeader('content-encoding') || !compressibleType(reply.getHeader('content-type'))) return false;
  if (/accept-encoding/i.test(String(reply.getHeader('vary') ?? ''))) return false;
  const size =
    typeof payload === 'string' || Buffer.isBuffer(payload)
      ? Buffer.byteLength(payload)
      : payload == null
        ? revalidatedBytes.get(reply)
        : undefined;
  return size === undefined || size >= COMPRESS_MIN_BYTES;
}

function varyByCoding(reply: FastifyReply) {
  reply.header('vary', withVary(reply.getHeader('vary'), 'accept-encoding'));
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && etag.startsWith('"')) reply.header('etag', `W/${etag}`);
}

export default fp(compression, { name: 'civitas-compression' });
