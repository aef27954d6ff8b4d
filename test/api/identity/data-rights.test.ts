import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { expectDocumented } from '../../helpers/documented.ts';
import { closeMailers } from '../../../api/mail/mailer.ts';
import { actorTag } from '../../../shared/boundaries/address-pressure.ts';
import { at, missing } from '../../helpers/elements.ts';

let t: TestApp;
let smtp: SMTPServer;
const inbox: { to: string[]; raw: string }[] = [];
/** Says 'mail' on each delivery, so a test waits for the message itself, not for a span of time. */
const deliveries = new EventEmitter();
let steward: TestSovereign;
let stewardTag = '';

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        deliveries.emit('mail');
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  // The steward is named by its raw id in configuration (CIVITAS_STEWARDS accepts ids and tags).
  const stewardId = randomUUID();
  t = await createTestApp({
    config: {
      smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      mailFrom: 'civitas <noreply@civitas.test>',
      stewards: [stewardId],
    },
  });
  steward = await sovereignWithId(t, stewardId);
  stewardTag = steward.tag;
});

/** A signed-in sovereign with a chosen raw id (so configuration can name it before start). */
async function sovereignWithId(app: TestApp, id: string): Promise<TestSovereign> {
  const ctx = app.app.civitas;
  const tag = await actorTag(id, ctx.keys.tagSecret);
  await ctx.db.query(
    `insert into sovereigns (id, tag, callsign, created_at) values ($1, $2, 'Steward', $3)`,
    [id, tag, ctx.clock.now().toISOString()],
  );
  const value = randomBytes(32).toString('base64url');
  await ctx.db.query(
    `insert into sessions (id_hash, sovereign_id, created_at, last_used_at, expires_at) values ($1, $2, $3, $3, $4)`,
    [
      createHash('sha256').update(value).digest('hex'),
      id,
      ctx.clock.now().toISOString(),
      new Date(ctx.clock.now().getTime() + 86_400_000).toISOString(),
    ],
  );
  return { id, tag, key: '', receiptId: '', cookie: `civitas_session=${value}` };
}
afterAll(async () => {
  closeMailers();
  await t?.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

const json = (cookie: string) => ({ origin: TEST_ORIGIN, accept: 'application/json', cookie });

async function waitForMail(count: number) {
  // No deadline of our own: a delivery that never comes fails at the test's timeout, a slow one passes.
  while (inbox.length < count) await once(deliveries, 'mail');
  expect(inbox.length).toBeGreaterThanOrEqual(count);
  return PostalMime.parse(at(inbox, count - 1).raw);
}

describe('email through SMTP', () => {
  it('sends a verification message and confirms the address only with its code, signed in', async () => {
    const me = await signedInSovereign(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/sovereign/email',
      headers: json(me.cookie),
      payload: { email: 'ada@example.org' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, status: 'verification_sent' });
    const mail = await waitForMail(1);
    expect(at(inbox, 0).to).toEqual(['ada@example.org']);
    expect(mail.subject).toContain('Confirm');
    const code = /email_token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
    expect(code).toBeTruthy();
    // Not yet the email; a wrong code changes nothing.
    let owner = (await t.app.inject({ method: 'GET', url: '/sovereign', headers: json(me.cookie) })).json();
    expect(owner.email).toMatchObject({ address: null, pending: 'ada@example.org', verified: false });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/sovereign/email',
      headers: json(me.cookie),
      payload: { action: 'verify', token: 'nope' },
    });
    expect(wrong.statusCode).toBe(400);
    // Someone else's session cannot use the code.
    const other = await signedInSovereign(t.app);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/sovereign/email',
          headers: json(other.cookie),
          payload: { token: code },
        })
      ).statusCode,
    ).toBe(400);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/sovereign/email',
      headers: json(me.cookie),
      payload: { token: code },
    });
    expect(ok.json()).toMatchObject({ ok: true, status: 'verified' });
    owner = (await t.app.inject({ method: 'GET', url: '/sovereign', headers: json(me.cookie) })).json();
    expect(owner.email).toMatchObject({ address: 'ada@example.org', verified: true, pending: null });
    // The address never appears on a public surface.
    const passport = await t.app.inject({
      method: 'GET',
      url: `/passport?tag=${me.tag}`,
      headers: { accept: 'application/json' },
    });
    expect(passport.body).not.toContain('ada@example.org');
    // A form post answers 303 back to the owner page.
    const removed = await t.app.inject({
      method: 'POST',
      url: '/sovereign/email',
      headers: {
        origin: TEST_ORIGIN,
        cookie: me.cookie,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'action=remove',
    });
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe('/sovereign?email=removed');
  });

  it('refuses a malformed address before sending anything', async () => {
    const me = await signedInSovereign(t.app);
    const before = inbox.length;
    for (const email of ['not-an-address', 'a@' + 'b'.repeat(300) + '.org']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/sovereign/email',
        headers: json(me.cookie),
        payload: { email },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().issues[0].path).toBe('email');
    }
    expect(inbox.length).toBe(before);
  });

  it('with mail unconfigured, says so (503 in its own words) and stores nothing', async () => {
    const bare = await createTestApp();
    try {
      const me = await signedInSovereign(bare.app);
      const res = await bare.app.inject({
        method: 'POST',
        url: '/sovereign/email',
        headers: json(me.cookie),
        payload: { email: 'x@example.org' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ ok: false, reason: 'provider_unavailable' });
      const [row = missing()] = await bare.app.civitas.db.query<{ email_pending: string | null }>(
        'select email_pending from sovereigns where id = $1',
        [me.id],
      );
      expect(row.email_pending).toBeNull();
    } finally {
      await bare.close();
    }
  });
});

describe('data rights', () => {
  it('files an export, a steward completes it, and the bundle holds everything held about the person', async () => {
    const me = await signedInSovereign(t.app, { callsign: 'Exporter' });
    const imprint = await t.app.inject({
      method: 'POST',
      url: '/api/quick-imprint',
      headers: json(me.cookie),
      payload: { body: 'export me please', kind: 'thought' },
    });
    expect(imprint.statusCode).toBe(200);
    const overview = (
      await t.app.inject({ method: 'GET', url: '/settings/data', headers: json(me.cookie) })
    ).json();
    expect(overview.held.find((h: { category: string }) => h.category === 'imprints')).toMatchObject({
      present: true,
      count: 1,
    });

    const filed = await t.app.inject({
      method: 'POST',
      url: '/settings/data/request',
      headers: json(me.cookie),
      payload: { kind: 'export' },
    });
    expect(filed.statusCode).toBe(200);
    const id = filed.json().request.id;
    // A repeated request while one is open is a clear 409, not a second row.
    const twice = await t.app.inject({
      method: 'POST',
      url: '/settings/data/request',
      headers: json(me.cookie),
      payload: { kind: 'export' },
    });
    expect(twice.statusCode).toBe(409);
    // Not downloadable before a steward processes it.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/settings/data/request?download=${id}`,
          headers: json(me.cookie),
        })
      ).statusCode,
    ).toBe(409);

    // The person cannot process their own request; the steward can.
    const self = await t.app.inject({
      method: 'POST',
      url: '/steward/data-requests',
      headers: json(me.cookie),
      payload: { id, action: 'complete' },
    });
    expect(self.statusCode).toBe(403);
    const queue = (
      await t.app.inject({ method: 'GET', url: '/steward/data-requests', headers: json(steward.cookie) })
    ).json();
    const entry = queue.pending.find((p: { id: string }) => p.id === id);
    expect(entry).toMatchObject({ kind: 'export', requester: `sovereign:${me.tag}` });
    expect(JSON.stringify(queue)).not.toContain(me.id);
    const done = await t.app.inject({
      method: 'POST',
      url: '/steward/data-requests',
      headers: json(steward.cookie),
      payload: { id, action: 'complete' },
    });
    expect(done.statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/steward/data-requests',
          headers: json(steward.cookie),
          payload: { id, action: 'complete' },
        })
      ).statusCode,
    ).toBe(409);

    const download = await t.app.inject({
      method: 'GET',
      url: `/settings/data/request?download=${id}`,
      headers: json(me.cookie),
    });
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
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/settings/data/request?download=${id}`,
          headers: json(other.cookie),
        })
      ).statusCode,
    ).toBe(404);
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
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/quick-imprint',
        headers: json(me.cookie),
        payload: { body },
      });
      expect(res.statusCode).toBe(200);
      receipts.push(res.json().receipt_id);
    }
    await t.app.inject({
      method: 'POST',
      url: '/sovereign/callsign-visibility',
      headers: json(me.cookie),
      payload: { visible: true },
    });
    const stats = async () =>
      (
        await t.app.inject({ method: 'GET', url: '/api/stats', headers: { accept: 'application/json' } })
      ).json();
    const before = await stats();

    const filed = await t.app.inject({
      method: 'POST',
      url: '/settings/data/request',
      headers: {
        origin: TEST_ORIGIN,
        cookie: me.cookie,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'kind=erasure',
    });
    expect(filed.statusCode).toBe(303);
    expect(filed.headers.location).toBe('/settings/data?filed=erasure');
    const [pending = missing()] = await t.app.civitas.db.query<{ id: string }>(
      `select id from data_requests where sovereign_id = $1 and kind = 'erasure'`,
      [me.id],
    );
    const done = await t.app.inject({
      method: 'POST',
      url: '/steward/data-requests',
      headers: json(steward.cookie),
      payload: { id: pending.id, action: 'complete', note: 'erased as asked' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().erased.imprints_cleared).toBe(2);

    // The session is gone; the key no longer opens anything.
    expect(
      (await t.app.inject({ method: 'GET', url: '/sovereign', headers: json(me.cookie) })).statusCode,
    ).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/return',
          headers: { origin: TEST_ORIGIN, accept: 'application/json' },
          payload: { key: me.key },
        })
      ).statusCode,
    ).toBe(401);

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
      const verify = await t.app.inject({
        method: 'GET',
        url: `/verify/${id}`,
        headers: { accept: 'application/json' },
      });
      expect(verify.statusCode, id).toBe(200);
      expect(JSON.stringify(verify.json())).not.toContain(
        me.tag === '0000' ? '\u0000' : `sovereign:${me.tag}"`,
      );
    }
    const crossing = (
      await t.app.inject({
        method: 'GET',
        url: `/begin/receipt/${me.receiptId}`,
        headers: { accept: 'application/json' },
      })
    ).json();
    expect(crossing.receipt.subject).toBe('redacted');
    // The public passport no longer shows the tag's holder.
    const passport = (
      await t.app.inject({
        method: 'GET',
        url: `/passport?tag=${me.tag}`,
        headers: { accept: 'application/json' },
      })
    ).json();
    expect(passport.holder).toBeNull();
  });

  it('refuses malformed requests with clear 4xx', async () => {
    const me = await signedInSovereign(t.app);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/settings/data/request',
          headers: json(me.cookie),
          payload: { kind: 'everything' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/steward/data-requests',
          headers: json(steward.cookie),
          payload: { id: 'dr_missing', action: 'complete' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/steward/data-requests',
          headers: json(steward.cookie),
          payload: { id: 'x', action: 'explode' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/settings/data/request?download=dr_nope',
          headers: json(me.cookie),
        })
      ).statusCode,
    ).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: '/settings/data/request',
      headers: json(me.cookie),
    });
    expect(list.json()).toEqual({ ok: true, requests: [] });
  });

  it('two concurrent erasure requests file one', async () => {
    const me = await signedInSovereign(t.app);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/settings/data/request',
          headers: json(me.cookie),
          payload: { kind: 'erasure' },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(3);
    expect(stewardTag).toMatch(/^[0-9a-f]{4}$/);
  });
});
