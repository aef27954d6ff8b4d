import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { appWithSteward } from '../steward/helpers.ts';

/** Withdrawing one's own pending data request through POST /settings/data/request (`withdraw`). */
let t: TestApp;
let steward: TestSovereign;
beforeAll(async () => {
  ({ t, steward } = await appWithSteward());
});
afterAll(async () => t?.close());

const { get, post, raw } = requests(() => t.app);
const statusOf = async (id: string) =>
  (
    await t.app.civitas.db.query<{ status: string }>('select status from data_requests where id = $1', [id])
  )[0]?.status;

describe('withdrawing a data request', () => {
  it('withdraws a pending erasure with a receipt; it can then be filed again', async () => {
    const me = await signedInSovereign(t.app);
    const filed = (await post('/settings/data/request', { kind: 'erasure' }, me)).json();
    const res = await post('/settings/data/request', { withdraw: filed.request.id }, me);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().request).toMatchObject({ id: filed.request.id, kind: 'erasure', status: 'withdrawn' });
    expect(await statusOf(filed.request.id)).toBe('withdrawn');
    const receipt = await raw(`/api/receipt/${res.json().request.receipt_id}`);
    expect(receipt.json().step).toBe('identity.data_request.withdrawn');
    const listed = await get('/settings/data/request', me);
    expect(listed.json().requests[0]).toMatchObject({ id: filed.request.id, status: 'withdrawn' });
    expect((await post('/settings/data/request', { kind: 'erasure' }, me)).statusCode).toBe(200);
  });

  it("refuses another person's request (404), a processed one (409) and a body naming neither or both (400)", async () => {
    const me = await signedInSovereign(t.app);
    const other = await signedInSovereign(t.app);
    const theirs = (await post('/settings/data/request', { kind: 'export' }, other)).json();
    expect((await post('/settings/data/request', { withdraw: theirs.request.id }, me)).statusCode).toBe(404);
    expect(await statusOf(theirs.request.id)).toBe('pending');
    const processed = await post(
      '/steward/data-requests',
      { id: theirs.request.id, action: 'complete' },
      steward,
    );
    expect(processed.statusCode, processed.body).toBe(200);
    const late = await post('/settings/data/request', { withdraw: theirs.request.id }, other);
    expect(late.statusCode).toBe(409);
    expect(await statusOf(theirs.request.id)).toBe('completed');
    expect((await post('/settings/data/request', {}, me)).statusCode).toBe(400);
    const both = await post('/settings/data/request', { kind: 'export', withdraw: theirs.request.id }, me);
    expect(both.statusCode).toBe(400);
  });

  it('needs a session (401)', async () => {
    const res = await post('/settings/data/request', { withdraw: 'dr_x' });
    expect(res.statusCode).toBe(401);
  });
});
