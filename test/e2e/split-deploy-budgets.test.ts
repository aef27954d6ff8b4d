/**
 * Behind proxies, budgets are per real client: the split deploy started as two processes, the
 * site server trusted by the API as its proxy (CIVITAS_TRUST_PROXY) and itself behind a proxy the
 * test plays (X-Forwarded-For). One client exhausting its read budget through the site server
 * leaves another client's first request, and its live page, at 200; the site server's own reads
 * (CIVITAS_SITE_SECRET) spend no visitor's budget.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  processStore,
  startApiProcess,
  startProcess,
  type ProcessStore,
  type RunningProcess,
} from '../helpers/processes.ts';

const READS = 12;
const SECRET = 'split-deploy-secret-for-tests';
let api: RunningProcess;
let site: RunningProcess;
let store: ProcessStore | undefined;

beforeAll(async () => {
  store = await processStore();
  api = await startApiProcess({
    ...store.env,
    CIVITAS_TRUST_PROXY: '127.0.0.1',
    CIVITAS_SITE_SECRET: SECRET,
    CIVITAS_RATE_READS_PER_MIN: String(READS),
  });
  site = await startProcess(fileURLToPath(new URL('../helpers/site-server.ts', import.meta.url)), {
    CIVITAS_API_URL: api.url,
    CIVITAS_TRUST_PROXY: '127.0.0.1',
    CIVITAS_SITE_SECRET: SECRET,
  });
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await api?.stop();
  await store?.remove();
});

const as = (client: string) => ({ headers: { 'x-forwarded-for': client } });

describe('budgets behind the split deploy', () => {
  it('one client exhausting its budget leaves another at 200', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= READS; i++) {
      const res = await fetch(`${site.url}/api/version`, as('203.0.113.1'));
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.at(-1)).toBe(429);
    const other = await fetch(`${site.url}/api/version`, as('203.0.113.2'));
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe(String(READS - 1));
  });

  it("renders live pages from the API without spending the visitor's budget", async () => {
    for (let i = 0; i <= READS; i++) {
      const page = await fetch(`${site.url}/status`, as('203.0.113.3'));
      expect(page.status).toBe(200);
      expect(await page.text()).not.toMatch(/HTTP 429/);
    }
    // The exhausted client's page still reads the API: the site server's reads are not its budget.
    const page = await fetch(`${site.url}/status`, as('203.0.113.1'));
    expect(await page.text()).toContain('All systems operating');
    const own = await fetch(`${site.url}/api/version`, as('203.0.113.3'));
    expect(own.headers.get('x-ratelimit-remaining')).toBe(String(READS - 1));
  });
});
