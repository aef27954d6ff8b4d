/**
 * The mcp operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { operations } from '../registry/operation.ts';
import { mcpDescriptionSchema, jsonRpcRequestSchema, jsonRpcResponseSchema } from './contract.ts';

const { api } = operations('mcp');

/** The Model Context Protocol endpoint. */
export const MCP_OPERATIONS = [
  api(
    '/mcp',
    'MCP endpoint (stateless Streamable HTTP): POST carries JSON-RPC 2.0 (tools/list, tools/call over the 20 civitas tools); GET describes the endpoint as JSON',
    {
      methods: ['GET', 'POST'],
      rate: 'read',
      GET: { response: mcpDescriptionSchema, policy: { cache: 'public' } },
      POST: { body: jsonRpcRequestSchema, validate: false, response: jsonRpcResponseSchema },
    },
  ),
];
