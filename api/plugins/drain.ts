/**
 * Draining on shutdown (api/shutdown.ts closes the app). Fastify's close stops accepting
 * connections, closes the idle ones and waits for the rest; but a request in flight on a
 * keep-alive connection would leave it open after its answer, and the process would wait out the
 * keep-alive timeout (72 s) before it could exit. So from the moment the app starts closing,
 * every answer says `Connection: close`: the client knows to reconnect elsewhere, and the
 * connection ends with the answer.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

async function drain(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    app.log.info('draining: answering the requests in flight, accepting no more');
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}

export default fp(drain, { name: 'civitas-drain' });
