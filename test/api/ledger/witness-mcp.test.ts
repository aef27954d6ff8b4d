import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { sealDueDays } from '../../../api/ledger/sealing.ts';
import {
  fromBase64Url,
  generateLogKey,
  parseNote,
  signatureLine,
  toBase64,
} from '../../../shared/ledger/index.ts';

let t: TestApp;
let base: string;
let receiptId: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: 'witnessed', body: 'to be sealed' },
  });
  receiptId = res.json().receipt_id;
  t.clock.set('2026-11-23T01:00:00.000Z');
  await sealDueDays(t.app.civitas);
});
afterAll(async () => t?.close());

const post = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/witness/mark', payload: payload as object });

describe('witnesses', () => {
  it('records a verified cosignature once, registers the key, and refuses forgeries', async () => {
    const anchor = (await t.app.inject({ method: 'GET', url: '/verify/anchor/2026-11-22' })).json();
    const witness = await generateLogKey();
    const name = 'witness.example/w1';
    const text = parseNote(anchor.checkpoint).text;
    const line = (await signatureLine(text, witness.privateJwk, name)).trimEnd();
    const public_key = toBase64(fromBase64Url(witness.publicJwk.x));

    const res = await post({ date: '2026-11-22', witness: name, public_key, signature: line });
    expect(res.statusCode, res.body).toBe(200);
    const mark = res.json();
    expect(mark).toMatchObject({ ok: true, already_marked: false, witness: name, date: '2026-11-22' });
    expect(mark.receipt_link).toMatch(/^\/witness\/receipt\/wt_[A-Za-z0-9_-]{43}$/);
    expect(mark.receipt.step).toBe('ledger.witness_mark');

    const again = await post({
      date: '2026-11-22',
      witness: name,
      public_key,
      signature: line.split(' ').pop(),
    });
    expect(again.json()).toMatchObject({
      ok: true,
      already_marked: true,
      receipt_link: null,
      receipt_id: mark.receipt_id,
    });

    // forged: signed by another key under the same name; changed signature; unknown day; malformed
    const other = await generateLogKey();
    const otherLine = (await signatureLine(text, other.privateJwk, name)).trimEnd();
    expect(
      (await post({ date: '2026-11-22', witness: name, public_key, signature: otherLine })).statusCode,
    ).toBe(400);
    const conflict = await post({
      date: '2026-11-22',
      witness: name,
      public_key: toBase64(fromBase64Url(other.publicJwk.x)),
      signature: otherLine,
    });
    expect(conflict.statusCode).toBe(409);
    const flipped = line.slice(0, -3) + (line.at(-3) === 'A' ? 'B' : 'A') + line.slice(-2);
    expect(
      (await post({ date: '2026-11-22', witness: name, public_key, signature: flipped })).statusCode,
    ).toBe(400);
    expect((await post({ date: '2026-10-01', witness: name, public_key, signature: line })).statusCode).toBe(
      404,
    );
    expect((await post({ date: 'x', witness: name })).statusCode).toBe(400);
    expect(
      (await post({ date: '2026-11-22', witness: 'civitas.test/log', public_key, signature: line }))
        .statusCode,
    ).toBe(400);
    expect(
      (await post({ date: '2026-11-22', witness: 'has space', public_key, signature: line })).statusCode,
    ).toBe(400);

    // the anchor lists the cosignature; the feed carries the checkpoint
    const listed = (await t.app.inject({ method: 'GET', url: '/verify/anchor/2026-11-22' })).json();
    expect(listed.cosignatures).toEqual([expect.objectContaining({ witness: name, signature_line: line })]);
    const feed = await t.app.inject({ method: 'GET', url: '/witness/feed.xml' });
    expect(feed.headers['content-type']).toContain('application/atom+xml');
    expect(feed.body).toContain('2026-11-22');

    // the receipt link sets the witness cookie, private and never stored by shared caches
    const redeem = await t.app.inject({
      method: 'GET',
      url: mark.receipt_link,
      headers: { accept: 'application/json' },
    });
    expect(redeem.statusCode).toBe(200);
    expect(redeem.json()).toMatchObject({ witness: name, date: '2026-11-22' });
    expect(String(redeem.headers['set-cookie'])).toContain('civitas_witness=wt_');
    expect(redeem.headers['cache-control']).toContain('no-store');
    expect(redeem.headers['cache-control']).toContain('private');
    const cookie = String(redeem.headers['set-cookie']).split(';')[0];
    const page = await t.app.inject({
      method: 'GET',
      url: '/witness',
      headers: { accept: 'application/json', cookie },
    });
    expect(page.json().you).toEqual({ witness: name });
    expect(page.headers['cache-control']).toContain('no-store');
    const anon = (
      await t.app.inject({ method: 'GET', url: '/witness', headers: { accept: 'application/json' } })
    ).json();
    expect(anon.you).toBeNull();
    expect(anon.witnesses[0]).toMatchObject({ name, marks: 1, latest_date: '2026-11-22' });
    const bogus = await t.app.inject({
      method: 'GET',
      url: `/witness/receipt/wt_${'A'.repeat(43)}`,
      headers: { accept: 'application/json' },
    });
    expect(bogus.statusCode).toBe(404);
    expect(bogus.headers['set-cookie']).toBeUndefined();
  });
});

describe('MCP tools receipt and verify', () => {
  it('serve the same projection as their HTTP twins', async () => {
    const client = new Client({ name: 'ledger-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toEqual(expect.arrayContaining(['civitas_receipt', 'civitas_verify']));
    const viaMcp = (await client.callTool({ name: 'civitas_receipt', arguments: { id: receiptId } }))
      .structuredContent as Record<string, unknown>;
    const viaHttp = (await t.app.inject({ method: 'GET', url: `/api/receipt/${receiptId}` })).json();
    expect(viaMcp).toEqual(viaHttp);
    const verified = (await client.callTool({ name: 'civitas_verify', arguments: { id: receiptId } }))
      .structuredContent as Record<string, any>;
    expect(verified.ok).toBe(true);
    expect(verified.proof.sealed).toBe(true);
    const missing = await client.callTool({
      name: 'civitas_verify',
      arguments: { id: 'rcpt_01JD0000000000000000000000' },
    });
    expect(missing.isError).toBe(true);
    await client.close();
  });
});
