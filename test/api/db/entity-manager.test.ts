/**
 * The entity manager beside raw SQL, on whichever database the suite uses (real PostgreSQL or the
 * embedded one): it reads and writes the project's own connection, takes part in the project's
 * transaction helper (both ways, and in the rollback), and raw rows arrive as RowOf says.
 * Then the cold paths that use it: feed tokens and the due feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowOf } from '../../../api/db/rows.ts';
import { FormFlash } from '../../../api/identity/entities.ts';
import { RecordCounter } from '../../../api/record/entities.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { at, missing } from '../../helpers/elements.ts';

let t: TestApp;
let me: TestSovereign;
beforeAll(async () => {
  t = await createTestApp();
  me = await signedInSovereign(t.app);
}, 60_000);
afterAll(async () => t?.close());

const db = () => t.database.db;
const { post, raw } = requests(() => t.app);
const later = (ms: number) => new Date(t.clock.now().getTime() + ms);

describe('the entity manager', () => {
  it('writes rows raw SQL reads, and reads rows raw SQL wrote', async () => {
    const em = db().em();
    em.create(FormFlash, { id: 'flash-em', payload: { page: '/x' }, expiresAt: later(60_000) });
    await em.flush();
    const [raw = missing()] = await db().query<RowOf<typeof FormFlash>>(
      'select * from form_flashes where id = $1',
      ['flash-em'],
    );
    expect(raw.payload).toEqual({ page: '/x' });
    expect(new Date(raw.expires_at).toISOString()).toBe(later(60_000).toISOString());

    await db().query(
      "insert into form_flashes (id, payload, expires_at) values ('flash-raw', '{\"n\":1}', $1)",
      [later(1000).toISOString()],
    );
    const read = await db().em().findOneOrFail(FormFlash, 'flash-raw');
    expect(read.payload).toEqual({ n: 1 });
    expect(read.expiresAt).toBeInstanceOf(Date);
  });

  it('shares the transaction of the project helper, both ways', async () => {
    await db().transaction(async (tx) => {
      await tx.query("insert into form_flashes (id, payload, expires_at) values ('flash-tx-raw', '{}', $1)", [
        later(1000).toISOString(),
      ]);
      expect(await tx.em.findOne(FormFlash, 'flash-tx-raw')).not.toBeNull();
      await tx.em.insert(FormFlash, { id: 'flash-tx-em', payload: {}, expiresAt: later(1000) });
      expect(await tx.query("select id from form_flashes where id = 'flash-tx-em'")).toHaveLength(1);
    });
    expect(
      await db()
        .em()
        .count(FormFlash, { id: { $in: ['flash-tx-raw', 'flash-tx-em'] } }),
    ).toBe(2);
  });

  it('rolls back with the transaction, both ways', async () => {
    const failing = db().transaction(async (tx) => {
      await tx.query("insert into form_flashes (id, payload, expires_at) values ('gone-raw', '{}', $1)", [
        later(1000).toISOString(),
      ]);
      await tx.em.insert(FormFlash, { id: 'gone-em', payload: {}, expiresAt: later(1000) });
      throw new Error('abandon');
    });
    await expect(failing).rejects.toThrow('abandon');
    expect(await db().query("select id from form_flashes where id in ('gone-raw', 'gone-em')")).toEqual([]);
  });

  it('hands out int8 as a number while a raw row carries it as its driver does', async () => {
    const counter = await db().em().findOneOrFail(RecordCounter, 1);
    expect(typeof counter.value).toBe('number');
    const [raw = missing()] = await db().query<RowOf<typeof RecordCounter>>(
      'select * from record_counter where id = 1',
    );
    expect(['number', 'string']).toContain(typeof raw.value);
    expect(Number(raw.value)).toBe(counter.value);
  });
});

describe("the Record's plain-SQL transaction", () => {
  it('plans its statements by key on PostgreSQL, for that transaction only (the setting never reaches the pool)', async (context) => {
    if (db().embedded) context.skip(); // the embedded database plans every statement afresh
    const inside = await db().sqlTransaction((tx) =>
      tx.query<{ enable_seqscan: string }>('show enable_seqscan'),
    );
    expect(at(inside, 0).enable_seqscan).toBe('off');
    const after = await Promise.all(
      Array.from({ length: 12 }, () => db().query<{ enable_seqscan: string }>('show enable_seqscan')),
    );
    expect(after.map((rows) => at(rows, 0).enable_seqscan)).toEqual(Array(12).fill('on'));
  });
});

describe('the cold paths on the entity manager', () => {
  const due = async () => (await raw('/sovereign/due.ics', { cookie: me.cookie })).body;
  /** An iCalendar UTC time: 20261122T130000Z. */
  const icsTime = (at: Date) => at.toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';

  it('show a pending email confirmation in the due feed until it expires, and pending requests', async () => {
    const expires = later(3_600_000);
    await db().query('update sovereigns set email_pending = $2, email_token_expires_at = $3 where id = $1', [
      me.id,
      'me@example.test',
      expires.toISOString(),
    ]);
    const filed = await post('/settings/data/request', { kind: 'export' }, me);
    expect(filed.statusCode).toBe(200);
    const feed = await due();
    expect(feed).toContain('Confirm your email address');
    expect(feed).toContain(`DTSTART:${icsTime(expires)}`);
    expect(feed).toContain('Your export request awaits a steward');

    t.clock.advance(2 * 3_600_000);
    expect(await due()).not.toContain('Confirm your email address');
  });

  it('rotate, open and revoke a feed token', async () => {
    const rotated = await post('/sovereign/email', { action: 'rotate_feed_token' }, me);
    expect(rotated.statusCode).toBe(200);
    const token = new URL(rotated.json().subscription.atom).searchParams.get('token')!;
    const open = () => raw(`/sovereign/due.xml?token=${encodeURIComponent(token)}`);
    expect((await open()).statusCode).toBe(200);
    const revoked = await post('/sovereign/email', { action: 'revoke_feed_token' }, me);
    expect(revoked.statusCode).toBe(200);
    expect((await open()).statusCode).toBe(401);
  });
});
