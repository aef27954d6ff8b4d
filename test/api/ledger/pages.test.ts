import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import {
  fromBase64Url,
  generateLogKey,
  parseNote,
  signatureLine,
  toBase64,
} from '../../../shared/ledger/index.ts';
import { requests } from '../../helpers/http.ts';
import { firstOf } from '../../helpers/elements.ts';

const built = existsSync(new URL('../../../dist/server/entry.mjs', import.meta.url));
let t: TestApp;
let receiptId: string;
let link: string;
beforeAll(async () => {
  if (!built) return;
  t = await createTestApp({ site: true });
  receiptId = (
    await t.app.inject({
      method: 'POST',
      url: '/api/agent/imprint',
      payload: { agent: 'page-reader', body: 'render me' },
    })
  ).json().receipt_id;
  t.clock.set('2026-11-23T01:00:00.000Z');
  await sealDueDays(t.app.civitas);
  const anchor = (await t.app.inject({ method: 'GET', url: '/verify/anchor/2026-11-22' })).json();
  const w = await generateLogKey();
  const line = await signatureLine(parseNote(anchor.checkpoint).text, w.privateJwk, 'w.example/pages');
  link = (
    await t.app.inject({
      method: 'POST',
      url: '/api/witness/mark',
      payload: {
        date: '2026-11-22',
        witness: 'w.example/pages',
        public_key: toBase64(fromBase64Url(w.publicJwk.x)),
        signature: line.trim(),
      },
    })
  ).json().receipt_link;
});
afterAll(async () => t?.close());

const { page } = requests(() => t.app);

describe.skipIf(!built)('ledger pages (built site)', () => {
  it('render the receipt, ledger, entry, anchor chain and witness pages from the JSON projections', async () => {
    const cases: [string, string][] = [
      [`/receipt/${receiptId}`, 'Verified against the signed anchor'],
      ['/ledger', receiptId],
      [`/ledger/${receiptId}`, 'History of the subject'],
      ['/verify/anchor-chain', 'Chain of 1 anchors verifies'],
      ['/witness', 'w.example/pages'],
      ['/receipt/missing', 'That receipt is not recorded'],
      ['/ledger/missing', 'That ledger entry does not exist'],
    ];
    for (const [url, text] of cases) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain(text);
      expect(res.body, url).toContain('<main');
      expect(res.body, url).toMatch(/<h1[^>]*>/);
    }
  });

  it('unknown and malformed ids render an honest page with 404 / 400', async () => {
    const unknown = await page('/receipt/rcpt_01JD0000000000000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('No receipt is recorded under that id');
    expect((await page('/receipt/not-an-id')).statusCode).toBe(400);
    expect((await page('/ledger/rcpt_01JD0000000000000000000000')).statusCode).toBe(404);
  });

  it('the witness receipt link sets the cookie privately and the page greets the witness', async () => {
    const res = await page(link);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('co-signed 2026-11-22');
    expect(String(res.headers['set-cookie'])).toContain('civitas_witness=');
    expect(res.headers['cache-control']).toContain('no-store');
    const cookie = firstOf(String(res.headers['set-cookie']).split(';'));
    const mine = await page('/witness', { cookie });
    expect(mine.body).toContain('You are witness');
    expect(mine.headers['cache-control']).toContain('private');
  });
});
