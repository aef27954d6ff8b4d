/** The axioms: the fixed founding articles, served with stable ids. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { AXIOMS } from '../../../shared/governance/axioms.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);

describe('axioms', () => {
  it('serves the fixed founding articles with stable ids', async () => {
    const res = await get('/api/axioms');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, schema: 'civitas.axioms.v1', fixed: true, count: AXIOMS.length });
    expect(body.axioms.length).toBeGreaterThanOrEqual(8);
    expect(body.axioms.map((a: { id: string }) => a.id)).toEqual(AXIOMS.map((_, i) => `axiom-${i + 1}`));
    expect(body.axioms[0].title).toBe('A handle is only a name');
  });
});
