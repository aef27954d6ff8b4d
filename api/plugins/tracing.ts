/**
 * One OpenTelemetry server span per request, loaded by buildApp only when traces are on
 * (api/tracing.ts). A Fastify hook rather than the auto-instrumentations: no module loader hooks,
 * and the span carries exactly what the access log carries, nothing more. Its name is the method
 * and the route template (`POST /api/agent/imprint`); its attributes are the template, the method,
 * the status and the request id (to find the log lines): never the URL, the query, an address or a
 * header, which may hold a handle, a token or a person's address.
 */
import {
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

async function tracing(app: FastifyInstance, options: { tracer: Tracer }) {
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    // Pages' in-process reads of the API are part of the page's request (as in the metrics).
    if (request.headers['x-civitas-internal'] === undefined) {
      const route = request.routeOptions.url ?? '(no route)';
      const parent = propagation.extract(ROOT_CONTEXT, request.headers);
      const span = options.tracer.startSpan(
        `${request.method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'http.route': route,
            'url.scheme': request.protocol,
            'civitas.request_id': request.id,
          },
        },
        parent,
      );
      spans.set(request, span);
    }
    done();
  });
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}

export default fp(tracing, { name: 'civitas-tracing' });
