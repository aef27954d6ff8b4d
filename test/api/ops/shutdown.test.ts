/**
 * Graceful shutdown on the real process: SIGTERM while a request is in flight → that request is
 * answered 200 and its connection closed (no keep-alive to wait out), the vitals of the last
 * interval are written, and the process exits 0.
 */
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, serverUrl, type TestDatabase } from '../../helpers/db.ts';
import { freePort } from '../../helpers/ports.ts';
import { runServer } from '../../helpers/server-process.ts';
import { missing } from '../../helpers/elements.ts';

/** An imprint whose headers the server has (it answered `100 Continue`) and whose body is not sent yet. */
async function halfSent(port: number, body: string) {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => (answer += String(chunk)));
  const ended = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /api/agent/imprint HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await new Promise<void>((resolve) => {
    const check = () => /^HTTP\/1\.1 100 Continue\r\n\r\n/.test(answer) && resolve();
    socket.on('data', check);
    check();
  });
  return { socket, answer: () => answer, ended };
}

describe.skipIf(!serverUrl())('SIGTERM with a request in flight', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'civitas-shutdown-'));
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers it, closes its connection, writes the vitals and exits 0', async () => {
    const port = await freePort();
    const server = runServer({
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      CIVITAS_DATA_DIR: dataDir,
      CIVITAS_LOG_LEVEL: 'info',
      CIVITAS_ACCESS_LOG_SAMPLE: '0',
    });
    try {
      await server.until(/civitas at /);
      for (let i = 0; i < 3; i++)
        expect((await fetch(`http://127.0.0.1:${port}/api/stats`)).status).toBe(200);

      // An imprint whose body waits for the server's `100 Continue`: in flight until the test sends it.
      const body = JSON.stringify({ agent: 'shutdown-probe', body: 'recorded while the server stops' });
      const { socket, answer, ended } = await halfSent(port, body);
      server.child.kill('SIGTERM');
      await server.until(/"msg":"draining: /);
      socket.write(body);

      await ended; // the server closed the connection after its answer
      const [, head, json] = answer().split('\r\n\r\n') as [string, string, string];
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(head).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(json)).toMatchObject({ receipt_id: expect.any(String) });
      expect(await server.exited, server.output().slice(-2000)).toBe(0);

      // The vitals of the last interval were written on the way out: every request counted.
      const [row = missing()] = await database.db.query<{ n: string | number | null }>(
        'select sum(requests) as n from vitals_minutes',
      );
      expect(Number(row.n)).toBeGreaterThanOrEqual(4);
      const [imprint = missing()] = await database.db.query<{ n: string | number }>(
        "select count(*) as n from imprints where body = 'recorded while the server stops'",
      );
      expect(Number(imprint.n)).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('cuts a request still in flight after the grace period, and still exits 0', async () => {
    const port = await freePort();
    const server = runServer({
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      CIVITAS_DATA_DIR: dataDir,
      CIVITAS_LOG_LEVEL: 'info',
      CIVITAS_SHUTDOWN_GRACE_MS: '200',
    });
    try {
      await server.until(/civitas at /);
      // Its body never comes.
      const { ended } = await halfSent(port, JSON.stringify({ agent: 'shutdown-probe', body: 'never sent' }));
      server.child.kill('SIGTERM');
      await ended;
      expect(await server.exited, server.output().slice(-2000)).toBe(0);
      expect(server.output()).toMatch(/requests still in flight after the grace period/);
    } finally {
      await server.stop();
    }
  });
});
