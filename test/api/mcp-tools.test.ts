/**
 * Issue 23 point 7 and issue 19 point 3 (MCP): the tools stand beside the reference servers'. No
 * `listChanged` (a stateless server cannot send it); all four annotation hints on every tool; an
 * `outputSchema` from the HTTP twin's answer, against which the SDK's own client validates the
 * structured content; one file per tool, named verb first; the twin a registry key.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MCP_TOOLS } from '../../api/families.ts';
import { ROUTE_KEYS } from '../../shared/registry/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { REPO_ROOT } from '../../api/boundaries/inventory.ts';
import { definersOf } from '../../api/boundaries/module-graph.ts';
import { buildModuleGraph } from '../../scripts/module-graph.ts';

let t: TestApp;
let client: Client;
beforeAll(async () => {
  t = await createTestApp();
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = new Client({ name: 'civitas-tools', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

describe('MCP tools', () => {
  it('announces tools without listChanged', () => {
    expect(client.getServerCapabilities()?.tools).toEqual({});
  });

  it('declares all four hints and an object outputSchema on every tool', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(20);
    for (const tool of tools) {
      for (const hint of HINTS)
        expect(typeof tool.annotations?.[hint], `${tool.name} ${hint}`).toBe('boolean');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
  });

  it('keeps a union answer exact in the outputSchema: each branch passes, a mix of branches does not', async () => {
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)!.outputSchema!;
    for (const name of ['civitas_imprint', 'civitas_certificate_verify', 'civitas_why'])
      expect(schemaOf(name).anyOf ?? schemaOf(name).oneOf, name).toBeInstanceOf(Array);
    const verify = new AjvJsonSchemaValidator().getValidator(schemaOf('civitas_certificate_verify'));
    const refused = { ok: true, valid: false, problem: 'malformed', hint: 'Send a compact JWS.' };
    expect(verify(refused).valid).toBe(true);
    expect(verify({ ...refused, valid: true }).valid).toBe(false);
    expect(verify({ ...refused, handle: 'nova' }).valid).toBe(false);
  });

  it('answers each union tool with structured content the SDK client validates', async () => {
    await client.listTools(); // the client keeps each tool's output validator
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(result.content)}`).toBeFalsy();
      return result.structuredContent as Record<string, unknown>;
    };
    const imprint = await call('civitas_imprint', { agent: 'union-tester', body: 'one answer, two shapes' });
    expect(imprint.sequence).toBeTypeOf('number');
    expect((await call('civitas_why', { entity: `imprint:${imprint.sequence}` })).kind).toBe('imprint');
    expect((await call('civitas_why', { entity: 'agent:union-tester' })).kind).toBe('agent');
    expect((await call('civitas_certificate_verify', { certificate: 'not.a.jws' })).valid).toBe(false);
  });

  it('answers structured content that validates against the outputSchema (checked by the SDK client)', async () => {
    await client.listTools(); // the client keeps each tool's output validator
    let called = 0;
    for (const tool of MCP_TOOLS) {
      if (!tool.annotations.readOnlyHint || !z.object(tool.inputSchema).safeParse({}).success) continue;
      const result = await client.callTool({ name: tool.name, arguments: {} });
      expect(result.isError, tool.name).toBeFalsy();
      expect(result.structuredContent, tool.name).toBeTypeOf('object');
      called++;
    }
    expect(called).toBeGreaterThan(8);
  });

  it('keeps one tool per file, named verb first, with its twin a registry key', () => {
    const modules = new Set<string>();
    const definers = definersOf(buildModuleGraph(REPO_ROOT)).tools;
    for (const tool of MCP_TOOLS) {
      const module = definers.get(tool.name);
      expect(module, tool.name).toMatch(
        /^api\/[a-z/]+\/tools\/(get|read|list|search|check|verify|explain|ask|prove|leave|send)-[a-z-]+\.ts$/,
      );
      modules.add(module!);
      expect(ROUTE_KEYS.has(tool.twin), tool.name).toBe(true);
    }
    expect(modules.size).toBe(MCP_TOOLS.length);
  });
});
