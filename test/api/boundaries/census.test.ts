import { existsSync, readdirSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDARY_KEYS, HEADER_BOUNDARY_KEYS } from '../../../shared/boundaries/keys.ts';
import { CENSUS_ROWS } from '../../../shared/boundaries/rows.ts';
import { addressPressure } from '../../../shared/boundaries/address-pressure.ts';
import { livePressure } from '../../../api/boundaries/pressure.ts';
import { liveCensus } from '../../../api/boundaries/census.ts';
import { censusHost } from '../../../api/boundaries/live-probes.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { at } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const census = async (headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/boundaries', headers });
  expect(res.statusCode).toBe(200);
  return { res, body: res.json() };
};

/** The two rows probed through POST /theme can only be proved once that door is built. */
const themeBuilt = () => t.app.realisations.get('POST /theme') === 'implemented';
const expectedUnbound = () => (themeBuilt() ? [] : ['set_cookie_replay', 'navigation_capability']);

describe('GET /api/boundaries', () => {
  it('answers every field of the census, in INTERFACE.md order, with 23 rows', async () => {
    const { res, body } = await census();
    expect(res.headers['content-type']).toContain('application/json');
    expect(Object.keys(body)).toEqual([
      'ok',
      'schema',
      'identity_boundary',
      'total_boundaries',
      'active',
      'unbound_count',
      'all_bound',
      'fully_accounted',
      'coverage',
      'address_pressure',
      'boundaries',
      'principle',
      'wiring_proof',
      'proof',
    ]);
    expect(body.ok).toBe(true);
    expect(body.schema).toBe('civitas.boundary-census.v1');
    expect(body.total_boundaries).toBe(23);
    expect(body.identity_boundary).toMatch(/synthetic literal/);
    expect(body.proof).toEqual({ human: '/boundaries', machine: '/api/boundaries' });
    expect(body.boundaries.map((row: { key: string }) => row.key)).toEqual([...BOUNDARY_KEYS]);
    for (const [i, row] of body.boundaries.entries()) {
      expect(Object.keys(row)).toEqual(['key', 'label', 'authority', 'guards', 'closes', 'status']);
      expect(row.authority).toBe(at(CENSUS_ROWS, i).authority);
      expect(['active', 'unbound']).toContain(row.status);
    }
    expect(body.active + body.unbound_count).toBe(23);
  });

  it('proves every boundary whose surface exists; only rows probed through an unbuilt door read unbound', async () => {
    const { body } = await census();
    const unbound = body.boundaries
      .filter((row: { status: string }) => row.status !== 'active')
      .map((row: { key: string }) => row.key);
    expect(unbound).toEqual(expectedUnbound());
    expect(body.active).toBe(23 - expectedUnbound().length);
    expect(body.unbound_count).toBe(expectedUnbound().length);
    expect(body.all_bound).toBe(expectedUnbound().length === 0);
    expect(body.fully_accounted).toBe(true);
  });

  it('is never cached and never storable by a shared cache', async () => {
    const { res } = await census();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('answers the same for a signed-in visitor and shows nothing of theirs', async () => {
    const who = await signedInSovereign(t.app);
    const { body } = await census({ cookie: who.cookie });
    const text = JSON.stringify(body);
    expect(text).not.toContain(who.id);
    expect(text).not.toContain(who.key);
    expect(body.boundaries.map((row: { status: string }) => row.status)).toEqual(
      (await census()).body.boundaries.map((row: { status: string }) => row.status),
    );
  });

  it('holds under concurrent and repeated requests: active is recomputed, never drifts', async () => {
    const bodies = await Promise.all(Array.from({ length: 12 }, () => census().then((c) => c.body)));
    const first = JSON.stringify(bodies[0].boundaries);
    for (const body of bodies) expect(JSON.stringify(body.boundaries)).toBe(first);
  });

  it('never answers with a census that began before the request: a burst shares the next run', async () => {
    const first = liveCensus(t.app.civitas, censusHost(t.app));
    const second = liveCensus(t.app.civitas, censusHost(t.app));
    const third = liveCensus(t.app.civitas, censusHost(t.app));
    const [a, b, c] = await Promise.all([first, second, third]);
    expect(b).toBe(c);
    // PostgreSQL: the first starts a run at once, the other two share the next. Embedded: the run
    // gathers (starts on the next check phase), so all three, asked before it began, share it.
    if (t.app.civitas.db.embedded) expect(a).toBe(b);
    else expect(a).not.toBe(b);
    const later = await liveCensus(t.app.civitas, censusHost(t.app));
    expect(later).not.toBe(a);
    expect(later).not.toBe(b);
  });

  it('ignores query strings and refuses other methods', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/boundaries?all_bound=true&x=%01' });
    expect(res.statusCode).toBe(200);
    // NUL is refused in any input, read or not (the one text rule): 400, never 500.
    const nul = await t.app.inject({ method: 'GET', url: '/api/boundaries?x=%00' });
    expect(nul.statusCode).toBe(400);
    const post = await t.app.inject({ method: 'POST', url: '/api/boundaries', payload: {} });
    expect(post.statusCode).toBeGreaterThanOrEqual(400);
    expect(post.statusCode).toBeLessThan(500);
    expect(post.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('names, in wiring_proof, test files that exist', async () => {
    const { body } = await census();
    const named = [...body.wiring_proof.matchAll(/test\/[\w/.-]*[\w*]/g)].map((m: RegExpMatchArray) => m[0]);
    expect(named.length).toBeGreaterThanOrEqual(3);
    for (const path of named) {
      if (path.includes('*')) {
        const dir = path.slice(0, path.lastIndexOf('/'));
        expect(
          readdirSync(dir).some((f) => f.endsWith('.test.ts')),
          path,
        ).toBe(true);
      } else {
        expect(existsSync(path), path).toBe(true);
      }
    }
  });
});

describe('live header probes against the running app', () => {
  it('refuses a cross-site POST to every credential door, built or not, before anything else runs', async () => {
    for (const door of ['/return', '/initiate', '/reconcile', '/theme', '/signout']) {
      const res = await t.app.inject({
        method: 'POST',
        url: door,
        headers: {
          origin: 'https://forged.invalid',
          'sec-fetch-site': 'cross-site',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'key=sk_x&theme=dark',
      });
      expect(res.statusCode, door).toBe(403);
      expect(res.json().reason, door).toBe('cross_origin_refused');
      expect(res.headers['set-cookie'], door).toBeUndefined();
    }
  });

  it('lets a same-origin POST through the provenance check (the door answers for itself)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/signout',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(res.statusCode).not.toBe(403);
  });

  it('serves /boundaries as a page no shared cache may keep', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/boundaries',
      headers: { cookie: 'civitas_session=whatever' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('<h1>The 23 privacy boundaries</h1>');
    expect(res.body).toContain('<table>');
    for (const key of BOUNDARY_KEYS) expect(res.body).toContain(`<code>${key}</code>`);
  });

  it('does not let an outside caller forge the probe marker to skip the page', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/boundaries',
      headers: { 'x-civitas-probe': 'guess' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>');
  });

  it('reports the five header rows from the live answers', async () => {
    const { body } = await census();
    const rows = new Map(
      body.boundaries.map((row: { key: string; status: string }) => [row.key, row.status]),
    );
    for (const key of HEADER_BOUNDARY_KEYS) {
      expect(rows.get(key), key).toBe(expectedUnbound().includes(key) ? 'unbound' : 'active');
    }
  });
});

describe('address pressure from the live population', () => {
  it('counts inhabitants, distinct and colliding tags the way addressPressure does', async () => {
    const fresh = await createTestApp();
    try {
      const empty = (await fresh.app.inject({ method: 'GET', url: '/api/boundaries' })).json()
        .address_pressure;
      expect(empty).toEqual({
        available: true,
        inhabitants: 0,
        distinct_addresses: 0,
        address_space: 65536,
        colliding_addresses: 0,
        unaddressable: 0,
        saturation: 0,
      });
      const people = [];
      for (let i = 0; i < 7; i++) people.push(await signedInSovereign(fresh.app));
      // Force collisions: three share one tag, two share another (tags are keyed hashes; collisions are expected at scale).
      await fresh.database.db.query('update sovereigns set tag = $1 where id = any($2::uuid[])', [
        'abcd',
        people.slice(0, 3).map((p) => p.id),
      ]);
      await fresh.database.db.query('update sovereigns set tag = $1 where id = any($2::uuid[])', [
        '0f0f',
        people.slice(3, 5).map((p) => p.id),
      ]);
      const tags = (await fresh.database.db.query<{ tag: string }>('select tag from sovereigns')).map(
        (row) => row.tag,
      );
      const pressure = (await fresh.app.inject({ method: 'GET', url: '/api/boundaries' })).json()
        .address_pressure;
      expect(pressure).toEqual(addressPressure(tags));
      expect(pressure).toMatchObject({
        inhabitants: 7,
        colliding_addresses: 2,
        unaddressable: 5,
        address_space: 65536,
      });
      expect(pressure.distinct_addresses).toBe(new Set(tags).size);
      // Raw ids and tags never appear: only counts.
      const text = JSON.stringify(pressure);
      for (const person of people) expect(text).not.toContain(person.id);
      // The kept tallies (migration 0081) follow erasure, deletion and case, and match a recount.
      const db = fresh.database.db;
      await db.query('update sovereigns set erased_at = now() where id = $1', [people[0]!.id]);
      await db.query('delete from sovereigns where id = $1', [people[3]!.id]);
      await db.query('update sovereigns set tag = $1 where id = $2', ['ABCD', people[5]!.id]);
      const live = await db.query<{ tag: string }>('select tag from sovereigns where erased_at is null');
      const after = (await fresh.app.inject({ method: 'GET', url: '/api/boundaries' })).json();
      const kept = { ...addressPressure(live.map((row) => row.tag)), inhabitants: 5, unaddressable: 3 };
      expect(after.address_pressure).toEqual({ ...kept, colliding_addresses: 1 });
      const drift = `select h.address from address_holders h full join (select lower(tag) as address, count(*) as n
        from sovereigns where erased_at is null group by 1) s on s.address = h.address where h.holders is distinct from s.n`;
      expect(await db.query(drift)).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('says unavailable, with zeros, when the population cannot be read', async () => {
    const broken = {
      query: async () => {
        throw new Error('connection refused by SENTINEL host');
      },
    };
    expect(await livePressure(broken as never)).toEqual(addressPressure(null));
  });
});

describe('MCP twin civitas_boundaries', () => {
  it('returns the same census as GET /api/boundaries', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'civitas-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((entry) => entry.name === 'civitas_boundaries');
      expect(tool?.annotations?.readOnlyHint).toBe(true);
      const result = (await client.callTool({ name: 'civitas_boundaries', arguments: {} }))
        .structuredContent as Record<string, any>;
      const http = (await census()).body;
      expect(result.schema).toBe(http.schema);
      expect(result.boundaries).toEqual(http.boundaries);
      expect(result.coverage).toEqual(http.coverage);
      expect(result.address_pressure).toEqual(http.address_pressure);
      expect(result.all_bound).toBe(http.all_bound);
    } finally {
      await client.close();
    }
  });
});
