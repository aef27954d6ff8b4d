import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { api } = family('mcp');

/** The Model Context Protocol endpoint. */
export const MCP_ROUTES: RouteShape[] = [
  api(
    '/mcp',
    'MCP endpoint (stateless Streamable HTTP): POST carries JSON-RPC 2.0 (tools/list, tools/call over the 20 civitas tools); GET describes the endpoint as JSON',
    { methods: ['GET', 'POST'], rate: 'read' },
  ),
];
