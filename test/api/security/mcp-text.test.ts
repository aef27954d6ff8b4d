/**
 * The one text rule on MCP tool arguments (api/mcp/endpoint.ts, for every tool): NUL or an
 * unpaired surrogate in any argument is refused as a tool error in our words (invalid_request
 * naming the argument), never an internal error, and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS } from '../../../api/families.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { databaseFingerprint } from '../../helpers/fingerprint.ts';
import { toolBody } from '../../helpers/mcp-result.ts';
import { entry } from '../../helpers/elements.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function call(name: string, args: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, arguments: args } },
  });
  return { status: res.statusCode, body: res.json() };
}

/** Arguments that a tool would otherwise accept, so the bad one is the only thing wrong. */
const VALID: Record<string, Record<string, unknown>> = {
  civitas_imprint: { agent: 'mcp-text-agent', body: 'fine words' },
  civitas_search: { q: 'words' },
  civitas_feedback_report: { topic: 'idea', body: 'fine words', agent: 'mcp-text-agent' },
};

describe('MCP arguments and the text rule', () => {
  it.each(Object.keys(VALID))('%s refuses NUL and a lone surrogate naming the argument', async (name) => {
    const before = await databaseFingerprint(t.app);
    for (const [field, value] of Object.entries(entry(VALID, name))) {
      if (typeof value !== 'string' || field === 'topic') continue;
      for (const bad of [`${value}\u0000`, `${value}\uDC00`]) {
        const { status, body } = await call(name, { ...VALID[name], [field]: bad });
        expect(status).toBe(200);
        expect(body.id).toBe(9);
        expect(body.result.isError, JSON.stringify(body)).toBe(true);
        const refusal = toolBody(body.result);
        expect(refusal.reason).toBe('invalid_request');
        expect(refusal.issues.map((i: { path: string }) => i.path)).toContain(field);
      }
    }
    expect(await databaseFingerprint(t.app)).toEqual(before);
  });

  it('never answers an internal error to NUL in any string argument of any tool', async () => {
    const internal: string[] = [];
    for (const tool of MCP_TOOLS) {
      for (const field of Object.keys(tool.inputSchema)) {
        const { status, body } = await call(tool.name, { [field]: 'x\u0000y' });
        const text = JSON.stringify(body);
        if (status >= 500 || /internal_error/.test(text)) internal.push(`${tool.name}.${field}`);
      }
    }
    expect(internal).toEqual([]);
  });
});
