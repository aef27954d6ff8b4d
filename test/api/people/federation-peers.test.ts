/**
 * Federation peers kept (issue 20, migration 0087): `federation_peer_relays` equals a full recount
 * of `federation_relays` per peer (relays, newest received_at) after inserts of one and several
 * peers, repeat relays, an older relay arriving later, updates of a time, a peer and neither,
 * deletes of the newest, of older ones and of a peer's last, and a truncate; /api/federation reads
 * it for the configured peers only, as the recount would answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { parseFederationPeers } from '../../../api/config.ts';
import { requests } from '../../helpers/http.ts';

let t: TestApp;
beforeAll(async () => {
  const x = (await exportJWK((await generateKeyPair('EdDSA', { crv: 'Ed25519' })).publicKey)).x!;
  const federationPeers = parseFederationPeers(
    JSON.stringify(
      ['peer-a', 'peer-b', 'peer-quiet'].map((name) => ({
        name,
        origin: `https://${name}.example/`,
        public_key: x,
      })),
    ),
  );
  t = await createTestApp({ config: { federationPeers } });
});
afterAll(async () => t?.close());

const { get } = requests(() => t.app);
const query = (text: string, params: unknown[] = []) => t.database.db.query(text, params);

let serial = 0;
/** Relays in one statement: [peer, received_at]. */
async function relay(...rows: [string, string][]) {
  const values = rows.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`);
  await query(
    `insert into federation_relays (id, peer, jti, topic, body, author, issued_at, received_at, receipt_id)
     select id, peer, id, 'idea', 'relayed', null, at::timestamptz, at::timestamptz, 'rcpt_test'
       from (values ${values.join(', ')}) v(id, peer, at)`,
    rows.flatMap(([peer, at]) => [`relay-${++serial}`, peer, at]),
  );
}

const AT = `to_char(%s at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The recount the view used to make on every request, the kept figures, and the view's peers. */
async function expectKeptEqualsRecount() {
  const recount = await query(
    `select peer, count(*)::int8 as relays, ${AT.replace('%s', 'max(received_at)')} as last
       from federation_relays group by peer order by peer`,
  );
  const kept = await query(
    `select peer, relays, ${AT.replace('%s', 'last_received_at')} as last from federation_peer_relays order by peer`,
  );
  expect(kept).toEqual(recount);
  const view = (await get('/api/federation')).json();
  const byPeer = new Map(recount.map((row) => [row.peer, row]));
  expect(view.peers).toEqual(
    ['peer-a', 'peer-b', 'peer-quiet'].map((name) =>
      expect.objectContaining({
        name,
        relays: byPeer.get(name)?.relays ?? 0,
        last_relay_at: byPeer.get(name)?.last ?? null,
      }),
    ),
  );
  return kept;
}

describe('federation peer figures kept as relays are written', () => {
  it('equal a full recount after inserts, repeats, updates, deletes and a truncate', async () => {
    expect(await expectKeptEqualsRecount()).toEqual([]);
    await relay(
      ['peer-a', '2026-01-10T00:00:00.123Z'],
      ['peer-a', '2026-01-31T23:30:00Z'],
      ['peer-b', '2026-02-01T00:00:00Z'],
      ['peer-stranger', '2026-02-02T00:00:00Z'],
    );
    expect(await expectKeptEqualsRecount()).toHaveLength(3);
    // Repeat relays of a peer, one newer, one older arriving later (the newest stays).
    await relay(['peer-a', '2026-03-01T00:00:00Z']);
    await relay(['peer-a', '2025-12-24T00:00:00Z'], ['peer-b', '2026-01-01T00:00:00Z']);
    expect(await expectKeptEqualsRecount()).toContainEqual({
      peer: 'peer-a',
      relays: 4,
      last: '2026-03-01T00:00:00.000Z',
    });
    // Updates behind the service's back: the newest moved back, a peer, a time forward, neither.
    await query(
      "update federation_relays set received_at = '2025-01-01T00:00:00Z' where peer = 'peer-a' and received_at = '2026-03-01T00:00:00Z'",
    );
    await expectKeptEqualsRecount();
    await query("update federation_relays set peer = 'peer-b' where peer = 'peer-stranger'");
    await query(
      "update federation_relays set received_at = received_at + interval '1 year' where peer = 'peer-b' and received_at < '2026-01-15'",
    );
    await query("update federation_relays set topic = 'other'");
    await expectKeptEqualsRecount();
    // Deletes: older relays only, then the newest, then a peer's last.
    await query("delete from federation_relays where peer = 'peer-a' and received_at < '2026-01-01'");
    await expectKeptEqualsRecount();
    await query("delete from federation_relays where peer = 'peer-a' and received_at > '2026-01-20'");
    expect(await expectKeptEqualsRecount()).toContainEqual({
      peer: 'peer-a',
      relays: 1,
      last: '2026-01-10T00:00:00.123Z',
    });
    await query("delete from federation_relays where peer = 'peer-a'");
    expect((await expectKeptEqualsRecount()).map((row) => row.peer)).toEqual(['peer-b']);
    await query('truncate federation_relays');
    expect(await expectKeptEqualsRecount()).toEqual([]);
    await relay(['peer-b', '2026-05-05T05:05:05.555Z']);
    await expectKeptEqualsRecount();
  });
});
