import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal } from '../../shared/errors.ts';

/**
 * Paths whose protocol answers its own errors for a body that is JSON but not an object
 * (JSON-RPC on /mcp answers -32600/-32700 in its envelope); every other door takes an object.
 */
const OWN_ENVELOPE_PATHS = new Set(['/mcp']);

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const refuse = (message: string) => new Refusal('invalid_request', { issues: [{ path: '(body)', message }] });

/**
 * The JSON body parser, in place of Fastify's default one:
 * - the bytes must be valid UTF-8: a lone 0xFF is refused (400), never stored as U+FFFD;
 * - the top level must be an object: `null`, `[]`, `"x"` or `1` is a malformed request (400) on
 *   every door, so no door mistakes it for an empty form (POST /initiate with `null` once crossed).
 * Parsing itself stays Fastify's (secure-json-parse: `__proto__` and `constructor` refused).
 */
async function jsonBody(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    (request: FastifyRequest, raw: Buffer, done) => {
      const ownEnvelope = OWN_ENVELOPE_PATHS.has(request.routeOptions.url ?? '');
      let text: string;
      try {
        text = strictUtf8.decode(raw);
      } catch {
        done(
          ownEnvelope
            ? new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()
            : refuse('The body is not valid UTF-8. Send JSON encoded as UTF-8.'),
          undefined,
        );
        return;
      }
      void parse(request, text, (error, body) => {
        if (error) return done(error, undefined);
        if (!ownEnvelope && (body === null || typeof body !== 'object' || Array.isArray(body))) {
          return done(refuse('The body must be a JSON object, such as {"field": "value"}.'), undefined);
        }
        done(null, body);
      });
    },
  );
}

export default fp(jsonBody, { name: 'civitas-json-body' });
