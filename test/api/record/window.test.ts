import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { at, missing } from '../../helpers/elements.ts';

/**
 * The 500-body window (DESIGN.md section 3) under concurrent writers, in one process and across two
 * API processes on one PostgreSQL: exactly min(total, 500) bodies remain, sequence numbers are
 * gap-free 1..N, and the lifetime count is N. No evicted body survives anywhere we publish.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function invariant(expectedTotal: number) {
  const db = t.database.db;
  const [counts = missing()] = await db.query<{
    n: string;
    bodies: string;
    min: string;
    max: string;
    distinct_n: string;
  }>(
    'select count(*) as n, count(body) as bodies, min(sequence) as min, max(sequence) as max, count(distinct sequence) as distinct_n from imprints',
  );
  const [counter = missing()] = await db.query<{ value: string }>(
    'select value from record_counter where id = 1',
  );
  expect(Number(counts.n)).toBe(expectedTotal);
  expect(Number(counts.distinct_n)).toBe(expectedTotal);
  expect(Number(counts.min)).toBe(1);
  expect(Number(counts.max)).toBe(expectedTotal);
  expect(Number(counter.value)).toBe(expectedTotal);
  expect(Number(counts.bodies)).toBe(Math.min(expectedTotal, 500));
  // The retained bodies are exactly the newest 500.
  const [oldestKept = missing()] = await db.query<{ min: string }>(
    'select min(sequence) as min from imprints where body is not null',
  );
  expect(Number(oldestKept.min)).toBe(Math.max(1, expectedTotal - 499));
  // Receipts: one per imprint, each naming its own sequence.
  const [receipts = missing()] = await db.query<{ n: string }>(
    `select count(*) as n from receipts where step = 'record.imprint'`,
  );
  expect(Number(receipts.n)).toBe(expectedTotal);
  const stats = (await t.app.inject({ method: 'GET', url: '/api/stats' })).json();
  expect(stats.imprints_lifetime).toBe(expectedTotal);
  expect(stats.imprints_retained).toBe(Math.min(expectedTotal, 500));
}

describe('the 500-body window', () => {
  it('holds with 8 concurrent writers in one process (640 imprints)', async () => {
    const writers = 8;
    const each = 80;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < each; i++) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/agent/imprint',
            payload: { agent: `writer-${w}-${i}`, body: `window token w${w}x${i} from writer ${w}` },
          });
          expect(res.statusCode, res.body).toBe(200);
        }
      }),
    );
    await invariant(writers * each);

    // The evicted bodies are gone from every surface: search, feeds, the Record, live polling.
    const search = (
      await t.app.inject({ method: 'GET', url: '/search?q=w0x0', headers: { accept: 'application/json' } })
    ).json();
    const [first = missing()] = await t.database.db.query<{ body: string | null; search: string }>(
      'select body, search::text as search from imprints where sequence = 1',
    );
    expect(first.body).toBeNull();
    expect(first.search).toBe('');
    const oldest = await t.database.db.query<{ sequence: string }>(
      `select sequence from imprints where body like 'window token w0x0 %'`,
    );
    expect(oldest.length).toBe(0);
    expect(JSON.stringify(search)).not.toContain('w0x0 from');
    const feed = await t.app.inject({ method: 'GET', url: '/imprint/feed.json' });
    expect(
      feed.json().items.every((item: { _civitas: { sequence: number } }) => item._civitas.sequence > 140),
    ).toBe(true);
    const live = (await t.app.inject({ method: 'GET', url: '/imprint/live?since=0&limit=200' })).json();
    expect(live.imprints[0].sequence).toBe(1);
    expect(live.imprints[0].body).toBeNull();
    expect(live.imprints[0].retained).toBe(false);
    const view = (
      await t.app.inject({ method: 'GET', url: '/window', headers: { accept: 'application/json' } })
    ).json();
    expect(view).toMatchObject({
      window: 500,
      imprints_lifetime: 640,
      imprints_retained: 500,
      oldest_retained: 141,
    });
    expect(view.latest_evictions[0]).toBe(140);
    expect(JSON.stringify(view)).not.toContain('window token');
  });

  it('holds across two API processes on one PostgreSQL with 8 concurrent writers', async (context) => {
    if (!t.database.url) {
      context.skip(
        'Needs a real PostgreSQL (TEST_DATABASE_URL): the embedded database is single-process by design.',
      );
      return;
    }
    const script = fileURLToPath(new URL('./window-server.ts', import.meta.url));
    const start = () =>
      new Promise<{ url: string; child: ChildProcess }>((resolve, reject) => {
        const child = fork(script, {
          env: { ...process.env, DATABASE_URL: t.database.url, CIVITAS_ORIGIN: 'http://127.0.0.1' },
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        });
        let stderr = '';
        child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
        child.once('exit', (code) =>
          reject(new Error(`window-server exited (${code}): ${stderr.slice(-1500)}`)),
        );
        child.on(
          'message',
          (message: { ready?: string }) => message.ready && resolve({ url: message.ready, child }),
        );
      });
    const servers = await Promise.all([start(), start()]);
    try {
      const writers = 8;
      const each = 45;
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const base = at(servers, w % 2).url;
          for (let i = 0; i < each; i++) {
            const res = await fetch(`${base}/api/agent/imprint`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ agent: `proc-${w}-${i}`, body: `two processes p${w % 2} w${w} i${i}` }),
            });
            statuses.push(res.status);
            await res.arrayBuffer();
          }
        }),
      );
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      await invariant(640 + writers * each);
    } finally {
      for (const server of servers) {
        server.child.removeAllListeners('exit');
        server.child.disconnect();
      }
      await Promise.all(
        servers.map(
          (s) => new Promise((done) => (s.child.exitCode !== null ? done(null) : s.child.once('exit', done))),
        ),
      );
    }
  }, 120_000);
});
