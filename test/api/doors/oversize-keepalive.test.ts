import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ browser: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => t?.close());

/** Collects what the server sends on one raw keep-alive socket; `until` waits for a condition. */
function rawSocket(): {
  socket: Socket;
  until(test: (received: string) => boolean): Promise<string>;
  closed: Promise<void>;
} {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  void closed.then(() => {
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    socket,
    closed,
    async until(test) {
      while (!test(received)) {
        if (socket.destroyed) return received;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
      return received;
    },
  };
}

const responses = (text: string) => text.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];

describe('a 413 leaves no connection waiting', () => {
  it.each(['/api/stripe/webhook', '/api/quick-imprint', '/mcp'])(
    '%s: after an oversize body the connection is closed or answers the next request',
    async (path) => {
      const raw = rawSocket();
      const body = 'x'.repeat(200 * 1024);
      raw.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      const first = await raw.until((text) => /\r\n\r\n/.test(text));
      expect(responses(first)[0]).toBe('HTTP/1.1 413');
      // Either the server closes the connection, or a second request on it is answered.
      raw.socket.write(`GET /_health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      const after = await raw.until((text) => responses(text).length >= 2);
      if (responses(after).length < 2) {
        await raw.closed;
        expect(raw.socket.destroyed || raw.socket.readableEnded).toBe(true);
      } else {
        expect(responses(after)[1]).toBe('HTTP/1.1 200');
      }
      raw.socket.destroy();
    },
  );
});
