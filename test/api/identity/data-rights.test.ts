import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { expectDocumented } from '../../helpers/documented.ts';
import { appWithSteward } from '../steward/helpers.ts';
import { missing } from '../../helpers/elements.ts';

/**
 * Data rights (DESIGN.md section 5): a person files an export or an erasure at /settings/data, a
 * steward processes it; the export holds everything held about the person and no secret's hash,
 * the erasure leaves nothing personal in any table while counts and receipts stay and verify.
 */
let t: TestApp;
let steward: TestSovereign;

beforeAll(async () => {
  // The steward is named by its raw id in configuration (CIVITAS_STEWARDS accepts ids and tags).
  ({ t, steward } = await appWithSteward());
});
afterAll(async () => t?.close());

const { get, post, form } = requests(() => t.app);

describe('data rights', () => {
  it('files an export, a steward completes it, and the bundle holds everything held about the person', async () => {
    const me = await signedInSovereign(t.app, { callsign: 'Exporter' });
    const imprint = await post(
      '/api/quick-imprint',
      { body: 'export me please', kind: 'thought' },
      me.cookie,
    );
    expect(imprint.statusCode).toBe(200);
    const overview = (await get('/settings/data', me)).json();
    expect(overview.held.find((h: { category: string }) => h.category === 'imprints')).toMatchObject({
      present: true,
      count: 1,
    });

    const filed = await post('/settings/data/request', { kind: 'export' }, me);
    expect(filed.statusCode).toBe(200);
    const id = filed.json().request.id;
    // A repeated request while one is open is a clear 409, not a second row.
    const twice = await post('/settings/data/request', { kind: 'export' }, me);
    expect(twice.statusCode).toBe(409);
    // Not downloadable before a steward processes it.
    expect((await get(`/settings/data/request?download=${id}`, me)).statusCode).toBe(409);

    // The person cannot process their own request; the steward can.
    const self = await post('/steward/data-requests', { id, action: 'complete' }, me);
    expect(self.statusCode).toBe(403);
    const queue = (await get('/steward/data-requests', steward)).json();
    const entry = queue.pending.find((p: { id: string }) => p.id === id);
    expect(entry).toMatchObject({ kind: 'export', requester: `sovereign:${me.tag}` });
    expect(JSON.stringify(queue)).not.toContain(me.id);
    const done = await post('/steward/data-requests', { id, action: 'complete' }, steward);
    expect(done.statusCode).toBe(200);
    expect((await post('/steward/data-requests', { id, action: 'complete' }, steward)).statusCode).toBe(409);

    const download = await get(`/settings/data/request?download=${id}`, me);
    expect(download.statusCode).toBe(200);
    expect(download.headers['cache-control']).toBe('private, no-store');
    const bundle = download.json();
    expect(bundle.schema).toBe('civitas.personal-data-export.v1');
    expectDocumented('GET /settings/data/request', bundle);
    expect(bundle.sovereign).toMatchObject({
      id: me.id,
      tag: me.tag,
      callsign: 'Exporter',
      sovereign_key: { held: true },
    });
    expect(bundle.sessions.length).toBeGreaterThanOrEqual(1);
    expect(bundle.sessions.some((s: { current: boolean }) => s.current)).toBe(true);
    expect(bundle.imprints).toEqual([
      expect.objectContaining({ body: 'export me please', receipt_id: imprint.json().receipt_id }),
    ]);
    const receiptIds = bundle.receipts.map((r: { id: string }) => r.id);
    expect(receiptIds).toContain(me.receiptId); // the crossing
    expect(receiptIds).toContain(imprint.json().receipt_id);
    expect(receiptIds).toContain(filed.json().request.receipt_id);
    expect(bundle.data_requests.map((r: { id: string }) => r.id)).toContain(id);
    // No secret's hash is in it.
    const [row = missing()] = await t.app.civitas.db.query<{ key_hash: string }>(
      'select key_hash from sovereigns where id = $1',
      [me.id],
    );
    expect(download.body).not.toContain(row.key_hash);
    const sessionHashes = await t.app.civitas.db.query<{ id_hash: string }>(
      'select id_hash from sessions where sovereign_id = $1',
      [me.id],
    );
    for (const s of sessionHashes) expect(download.body).not.toContain(s.id_hash);
    // Someone else cannot download it.
    const other = await signedInSovereign(t.app);
    expect((await get(`/settings/data/request?download=${id}`, other)).statusCode).toBe(404);
  });

  it('erasure removes personal data and bodies, keeps counts and receipts (subject redacted, still verifiable)', async () => {
    const me = await signedInSovereign(t.app, { callsign: 'Forgettable' });
    await t.app.civitas.db.query(
      `update sovereigns set email = 'forget@example.org', email_verified_at = now() where id = $1`,
      [me.id],
    );
    const bodies = ['first private thought zq1', 'second private thought zq2'];
    const receipts: string[] = [];
    for (const body of bodies) {
      const res = await post('/api/quick-imprint', { body }, me);
      expect(res.statusCode).toBe(200);
      receipts.push(res.json().receipt_id);
    }
    await post('/sovereign/callsign-visibility', { visible: true }, me);
    const stats = async () => (await get('/api/stats')).json();
    const before = await stats();

    const filed = await form('/settings/data/request', 'kind=erasure', me);
    expect(filed.statusCode).toBe(303);
    expect(filed.headers.location).toBe('/settings/data?filed=erasure');
    const [pending = missing()] = await t.app.civitas.db.query<{ id: string }>(
      `select id from data_requests where sovereign_id = $1 and kind = 'erasure'`,
      [me.id],
    );
    const done = await post(
      '/steward/data-requests',
      { id: pending.id, action: 'complete', note: 'erased as asked' },
      steward.cookie,
    );
    expect(done.statusCode).toBe(200);
    expect(done.json().erased.imprints_cleared).toBe(2);

    // The session is gone; the key no longer opens anything.
    expect((await get('/sovereign', me)).statusCode).toBe(401);
    expect((await post('/return', { key: me.key }, { origin: TEST_ORIGIN })).statusCode).toBe(401);

    // Nothing personal is left anywhere in the database.
    const db = t.app.civitas.db;
    const tables = await db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    const needles = ['Forgettable', 'forget@example.org', ...bodies, me.key, me.id];
    for (const { table_name } of tables) {
      const rows = await db.query<{ row: string }>(`select t::text as row from "${table_name}" t`);
      for (const { row } of rows) {
        for (const needle of needles) {
          expect(row.includes(needle), `${table_name} still holds ${needle.slice(0, 20)}`).toBe(false);
        }
      }
    }
    // The person's row is gone; the anonymous member that keeps the count holds nothing personal and no tag.
    expect(await db.query('select 1 from sovereigns where id = $1', [me.id])).toEqual([]);
    const [sov = missing()] = await db.query<Record<string, unknown>>(
      'select s.* from sovereigns s join data_requests r on r.sovereign_id = s.id where r.id = $1',
      [pending.id],
    );
    expect(sov).toMatchObject({
      tag: '----',
      callsign: null,
      email: null,
      key_hash: null,
      idp_subject: null,
      callsign_visible: false,
    });
    expect(sov.erased_at).not.toBeNull();
    expect(await db.query(`select 1 from receipts where subject = $1`, [`sovereign:${me.tag}`])).toEqual([]);

    // Counts are kept; the receipts stay and still verify.
    const after = await stats();
    expect(after.humans).toBe(before.humans);
    expect(after.imprints_lifetime).toBe(before.imprints_lifetime);
    for (const id of [...receipts, me.receiptId]) {
      const verify = await get(`/verify/${id}`);
      expect(verify.statusCode, id).toBe(200);
      expect(JSON.stringify(verify.json())).not.toContain(
        me.tag === '0000' ? '\u0000' : `sovereign:${me.tag}"`,
      );
    }
    const crossing = (await get(`/begin/receipt/${me.receiptId}`)).json();
    expect(crossing.receipt.subject).toBe('redacted');
    // The public passport no longer shows the tag's holder.
    const passport = (await get(`/passport?tag=${me.tag}`)).json();
    expect(passport.holder).toBeNull();
  });

  it('refuses malformed requests with clear 4xx', async () => {
    const me = await signedInSovereign(t.app);
    expect((await post('/settings/data/request', { kind: 'everything' }, me)).statusCode).toBe(400);
    expect(
      (await post('/steward/data-requests', { id: 'dr_missing', action: 'complete' }, steward)).statusCode,
    ).toBe(404);
    expect((await post('/steward/data-requests', { id: 'x', action: 'explode' }, steward)).statusCode).toBe(
      400,
    );
    expect((await get('/settings/data/request?download=dr_nope', me)).statusCode).toBe(404);
    const list = await get('/settings/data/request', me);
    expect(list.json()).toEqual({ ok: true, requests: [] });
  });

  it('two concurrent erasure requests file one', async () => {
    const me = await signedInSovereign(t.app);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => post('/settings/data/request', { kind: 'erasure' }, me)),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(3);
    expect(steward.tag).toMatch(/^[0-9a-f]{4}$/);
  });
});
