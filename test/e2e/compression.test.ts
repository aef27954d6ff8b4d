/**
 * br/gzip on the wire (api/plugins/compression.ts): the one-origin app on a real listener and the
 * split deploy's site server as its own process in front of it. Dynamic HTML, JSON, SVG and feeds
 * come back br or gzip when asked, identical after decoding, with `Vary: accept-encoding` and one
 * weak ETag that still earns a 304; PNG and tiny answers go as they are; MCP (a hijacked reply)
 * keeps working with a client that accepts both codings.
 */
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { sovereignImprint } from '../helpers/builders.ts';
import { signedInSovereign } from '../helpers/identity.ts';
import { startProcess, type RunningProcess } from '../helpers/processes.ts';

let t: TestApp;
let api: string;
let site: RunningProcess;

beforeAll(async () => {
  t = await createTestApp({ site: true });
  // Enough on the pulse for its feed to be worth coding (over 1 KB).
  const dana = await signedInSovereign(t.app);
  for (let i = 0; i < 4; i++) await sovereignImprint(t.app, dana, `compressed imprint number ${i}`);
  api = await t.app.listen({ port: 0, host: '127.0.0.1' });
  site = await startProcess(fileURLToPath(new URL('../helpers/site-server.ts', import.meta.url)), {
    CIVITAS_API_URL: api,
  });
}, 120_000);

afterAll(async () => {
  await site?.stop();
  await t?.close();
});

interface WireAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent. */
  raw: Buffer;
  /** The bytes after undoing Content-Encoding. */
  body: Buffer;
}

/** One GET over a socket, bytes as they came (fetch would decode them and hide what was sent). */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        // A 304 may name the coding of the answer it revalidates, with no body to decode.
        const coding = raw.length ? res.headers['content-encoding'] : undefined;
        const body = coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const varies = (answer: WireAnswer) => String(answer.headers.vary ?? '').toLowerCase();

/** Identity, br and gzip of one URL: coded when asked, same bytes decoded, one weak tag, and a 304. */
async function expectCodings(base: string, path: string, { conditional = true } = {}) {
  const plain = await get(base, path);
  expect(plain.status, path).toBe(200);
  expect(plain.headers['content-encoding'], path).toBeUndefined();
  expect(plain.raw.length, path).toBeGreaterThan(1024);
  for (const coding of ['br', 'gzip']) {
    const coded = await get(base, path, { 'accept-encoding': coding });
    expect(coded.status, path).toBe(200);
    expect(coded.headers['content-encoding'], `${path} ${coding}`).toBe(coding);
    expect(coded.raw.length, path).toBeLessThan(plain.raw.length);
    expect(coded.body.equals(plain.body), `${path} ${coding} decodes to the same bytes`).toBe(true);
    expect(varies(coded), path).toContain('accept-encoding');
    expect(coded.headers.etag, path).toBe(plain.headers.etag);
    if (!conditional) continue;
    expect(coded.headers.etag, path).toMatch(/^W\/"/);
    // The tag the client got with its coded answer still earns a 304, coded or not.
    for (const again of [coding, 'identity']) {
      const revalidated = await get(base, path, {
        'accept-encoding': again,
        'if-none-match': String(coded.headers.etag),
      });
      expect(revalidated.status, `${path} ${coding} → 304 (${again})`).toBe(304);
      expect(revalidated.raw.length).toBe(0);
      expect(revalidated.headers.etag).toBe(coded.headers.etag);
      expect(varies(revalidated)).toContain('accept-encoding');
    }
  }
  expect(varies(plain), path).toContain('accept-encoding');
}

const DYNAMIC = ['/changelog', '/agents.json', '/streaks.svg', '/feed/pulse'];

describe('one origin, real listener', () => {
  it.each(DYNAMIC)('%s comes back br and gzip, identical decoded, and 304 on its tag', async (path) => {
    await expectCodings(api, path);
  });

  it('/atlas comes back br and gzip, identical decoded', async () => {
    // A live projection: `no-store`, so never revalidated (its render tag is only shared by a burst).
    await expectCodings(api, '/atlas', { conditional: false });
  });

  it('sends a PNG and a tiny answer as they are', async () => {
    const png = await get(api, '/og.png', { 'accept-encoding': 'br, gzip' });
    expect(png.status).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.etag).toMatch(/^"/);
    const tiny = await get(api, '/badge.svg', { 'accept-encoding': 'br, gzip' });
    expect(tiny.status).toBe(200);
    expect(tiny.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(tiny.raw.length).toBeLessThan(1024);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    // Never coded, so one representation: its tag stays strong and it does not vary by coding.
    expect(tiny.headers.etag).toMatch(/^"/);
    expect(varies(tiny)).not.toContain('accept-encoding');
  });

  it('leaves /openapi.json its own strong tag per coding', async () => {
    const br = await get(api, '/openapi.json', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.etag).toMatch(/^"/);
    const again = await get(api, '/openapi.json', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers.etag),
    });
    expect(again.status).toBe(304);
  });

  it('keeps MCP (a hijacked reply) working for a client accepting br and gzip', async () => {
    const client = new Client({ name: 'civitas-compression-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('civitas_status');
    await client.close();
  });
});

describe('split deploy: the site server in its own process', () => {
  it.each(['/atlas', '/changelog'])(
    '%s (rendered by the site server) comes back br and gzip',
    async (path) => {
      // The site server keeps no 304 of its own for live renders; the codings and the tag hold.
      await expectCodings(site.url, path, { conditional: false });
    },
  );

  it.each(['/agents.json', '/streaks.svg', '/feed/pulse'])(
    '%s (relayed from the API) comes back br and gzip, and 304 on its tag',
    async (path) => {
      await expectCodings(site.url, path);
    },
  );

  it('codes the theme stylesheet and keeps its 304, and sends the PNG as it is', async () => {
    const home = (await get(site.url, '/atlas')).body.toString('utf8');
    const theme = /href="(\/theme\.[^"]+\.css)"/.exec(home)?.[1];
    expect(theme).toBeDefined();
    await expectCodings(site.url, theme!);
    const png = await get(site.url, '/og.png', { 'accept-encoding': 'br, gzip' });
    expect(png.status).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
  });
});
