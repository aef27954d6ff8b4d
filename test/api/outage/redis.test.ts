/**
 * Redis taken away for real (a redis-server of the test's own, killed mid-test): rate limits fall
 * back to per-process counters with one warning, every route keeps answering, readiness says
 * `degraded` with the reason while the process stays in rotation, and all returns when Redis does.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { ownRedis, type OwnRedis } from '../../helpers/redis.ts';
import { until as waitUntil } from '../../helpers/wait.ts';

let t: TestApp;
let redis: OwnRedis;
const lines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

/** Polls the fact every 25 ms (Redis reconnects fast), for up to 10 s. */
const until = (condition: () => Promise<boolean>, what: string) =>
  waitUntil(what, async () => ((await condition()) ? true : undefined), { tries: 400, everyMs: 25 });

const probe = () => t.app.inject({ method: 'GET', url: '/_health' });

beforeAll(async () => {
  redis = await ownRedis();
  await redis.start();
  t = await createTestApp({
    logger: true,
    logStream,
    config: { redisUrl: redis.url, logLevel: 'info', rateReadsPerMin: 5 },
  });
  await until(async () => (await probe()).json().status === undefined, 'Redis to connect');
});
afterAll(async () => {
  await t?.close();
  await redis?.stop();
});

describe('Redis away', () => {
  it('counts in Redis while it answers', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/version', remoteAddress: '10.0.0.1' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('4');
    expect(await probe().then((r) => r.json())).toEqual({ ok: true });
  });

  it('falls back to per-process counters with one warning, degraded but serving', async () => {
    await redis.stop();
    // Once the process has noticed (a counter already in flight may still have gone to Redis).
    await until(async () => (await probe()).json().status === 'degraded', 'the process to notice');
    const answers = [];
    for (let i = 0; i < 8; i++) {
      answers.push(await t.app.inject({ method: 'GET', url: '/api/version', remoteAddress: '10.0.0.2' }));
    }
    // Still limited (per process now): five answers, then 429 — never a 500.
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const health = await probe();
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ ok: true, status: 'degraded' });
    expect(health.json().reasons.join(' ')).toMatch(/redis/);
    const detail = await t.app.inject({ method: 'GET', url: '/health', remoteAddress: '10.0.0.3' });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ ok: true, status: 'degraded', database: { ok: true } });
    await new Promise((resolve) => logStream.write('', resolve));
    const warnings = lines.filter((line) => /Redis unreachable/.test(line));
    expect(warnings).toHaveLength(1);
    expect(lines.join('\n')).not.toMatch(/Unhandled error event|"stack"/);
  });

  it('shares the counters again when Redis returns', async () => {
    await redis.start();
    await until(async () => (await probe()).json().status === undefined, 'Redis to reconnect');
    const again = await t.app.inject({ method: 'GET', url: '/api/version', remoteAddress: '10.0.0.4' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['x-ratelimit-remaining']).toBe('4');
    expect(lines.some((line) => /Redis is back/.test(line))).toBe(true);
  });
});
