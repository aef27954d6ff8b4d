/**
 * The MCP endpoint's operations (shared/contract.ts). POST /mcp carries one JSON-RPC 2.0 message;
 * a message it cannot take is answered in JSON-RPC's own words (api/mcp/jsonrpc.ts), so the
 * router only documents its body (`validate: false`) and leaves the checking to the endpoint.
 */
import { z } from 'zod';

const id = z.union([z.string(), z.number().int()]);

export const jsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: id.optional().describe('absent for a notification, which is answered 202 without a body'),
  method: z.string().describe('initialize, tools/list, tools/call, ping, …'),
  params: z.record(z.string(), z.unknown()).optional().describe('tools/call: { name, arguments }'),
});

export const jsonRpcResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: id.nullable(),
  result: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('tools/call: { content, structuredContent, isError? }'),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
});

/** GET /mcp: what the endpoint is and the tools it serves. */
export const mcpDescriptionSchema = z.object({
  ok: z.literal(true),
  name: z.literal('civitas'),
  version: z.string(),
  protocol: z.string(),
  endpoint: z.literal('/mcp'),
  usage: z.string(),
  tools: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      description: z.string(),
      twin: z.string().nullable().describe('the HTTP route it mirrors'),
    }),
  ),
});
