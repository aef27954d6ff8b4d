import { defineRoute } from '../route.ts';
import { APP_VERSION } from '../config.ts';
import { handleMcpPost } from './endpoint.ts';

export const mcpRoutes = [
  defineRoute('POST /mcp', {
    handler: (request, reply) => handleMcpPost(request, reply, request.server.tools),
  }),
  // Without our own GET the SDK would hold GET open as an SSE stream; a stateless server has none.
  defineRoute('GET /mcp', {
    handler: async (request) => ({
      ok: true as const,
      name: 'civitas' as const,
      version: APP_VERSION,
      protocol: 'Model Context Protocol, Streamable HTTP (stateless)',
      endpoint: '/mcp' as const,
      usage:
        'POST JSON-RPC 2.0 to /mcp with Accept: application/json, text/event-stream. Initialize, then tools/list and tools/call.',
      tools: request.server.tools.map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        twin: tool.twin ?? null,
      })),
    }),
  }),
];
