/**
 * Empty states on an empty service: one per page, saying what comes next, never blank charts or the
 * same sentence twice. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ site: true });
});
afterAll(async () => t?.close());

describe('/commons with nothing gathering', () => {
  it('says once that no confluence gathers, and how to start one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/commons', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body.match(/No confluence is gathering now/g)).toHaveLength(1);
    expect(res.body).toContain('leave an imprint that is not a reply');
    expect(res.body).not.toContain('/confluence/card.svg');
  });
});

describe('/metabolism with nothing in or out', () => {
  it('draws no blank charts: one empty state with the next step', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metabolism', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Nothing came in or left in the last 30 days');
    expect(res.body).not.toContain('<figure class="chart"');
  });
});
