/**
 * /commons with no confluence: one empty state that says how to start one, not the same sentence
 * twice (a list and a card). Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

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
