/**
 * The /mcp endpoint: a stateless MCP server per request over the families' tools. Host code: it
 * hands each tool the running app (api/tool.ts), as the router hands a route handler `request.server`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Refusal } from '../../shared/errors.ts';
import { projectFailure } from '../../shared/boundaries/projectors/failures.ts';
import type { AppContext } from '../context.ts';
import { APP_VERSION } from '../config.ts';
import { earlyAnswer } from './jsonrpc.ts';
import { unstorableText } from '../../shared/storable-text.ts';
import { outputSchemaOf, toolRefusal, type CivitasTool } from '../tool.ts';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';

/** A fresh server per request: stateless Streamable HTTP, so any process can answer any call. */
export function buildMcpServer(tools: CivitasTool[], ctx: AppContext, app?: FastifyInstance): McpServer {
  const server = new McpServer({ name: 'civitas', version: APP_VERSION }, { capabilities: { tools: {} } });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: outputSchemaOf(tool),
        annotations: tool.annotations,
      },
      async (args: Record<string, unknown>) => {
        try {
          // The one text rule (shared/storable-text.ts), for every tool's arguments.
          const issues = unstorableText(args);
          if (issues.length) throw new Refusal('invalid_request', { issues });
          const result = await tool.handler(args as never, ctx, app);
          // A refusal a service answers rather than throws (the unknown handle) is a tool error
          // too: it is not the twin's answer, so it is not checked against the output schema.
          if ((result as { ok?: unknown } | null)?.ok === false) return toolRefusal(tool, result);
          return {
            content: [{ type: 'text' as const, text: JSON.stringify(result) }],
            structuredContent: result as Record<string, unknown>,
          };
        } catch (error) {
          // failure_projection: only the catalog's words leave, never the runtime's.
          const body =
            error instanceof Refusal
              ? error.body()
              : projectFailure({
                  lane: 'mcp',
                  external: false,
                  message: error instanceof Error ? error.message : String(error),
                });
          return toolRefusal(tool, body);
        }
      },
    );
  }
  // McpServer announces `tools.listChanged` once a tool is registered (SDK 1.32), and offers no
  // option against it. A stateless server has no stream to send that notification on, and its list
  // never changes while a process runs: the capability is withdrawn before the server connects.
  const announced = (server.server as unknown as { _capabilities: ServerCapabilities })._capabilities;
  announced.tools = {};
  return server;
}

/** A tools/call naming a tool not marked read-only (no annotation counts as a write). */
export function changesState(body: unknown, tools: CivitasTool[]): boolean {
  const message = body as { method?: unknown; params?: { name?: unknown } };
  if (message.method !== 'tools/call') return false;
  const tool = tools.find((candidate) => candidate.name === message.params?.name);
  return tool !== undefined && tool.annotations?.readOnlyHint !== true;
}

export async function handleMcpPost(request: FastifyRequest, reply: FastifyReply, tools: CivitasTool[]) {
  // Fastify also parses text/plain and forms; JSON-RPC over Streamable HTTP is application/json only.
  const type = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase(); // ≥ 1 part
  if (type !== 'application/json')
    throw new Refusal(
      'unsupported_media_type',
      {},
      'POST /mcp takes one JSON-RPC message as Content-Type: application/json.',
    );
  // What the SDK would answer in its own words (or as an internal error) is answered here in ours.
  const early = earlyAnswer(request.body, tools);
  if (early) return reply.code(early.status).type('application/json').send(early.body);
  // /mcp is a read-class route; a tool that changes state spends the write budget before it runs.
  if (changesState(request.body, tools)) await request.server.chargeWrite(request);
  const server = buildMcpServer(tools, request.server.civitas, request.server);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  // Security headers set so far must survive the hijack.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
  }
  reply.hijack();
  await server.connect(transport);
  await transport.handleRequest(request.raw, reply.raw, request.body);
  return reply; // hijacked: Fastify sends nothing more
}
