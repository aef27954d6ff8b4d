import { z } from 'zod';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Refusal, type ErrorBody } from '../../shared/errors.ts';
import { toolRefusal, type CivitasTool } from '../tool.ts';

/** JSON-RPC 2.0 error codes (and the MCP transport's server-error code for refusals before a method runs). */
export const JSONRPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  serverError: -32000,
} as const;

type Id = string | number | null;

/** The one envelope every JSON-RPC failure leaves in: our words in `message`, our refusal body in `data`. */
export function jsonRpcError(id: Id, code: number, message: string, data?: ErrorBody) {
  return { jsonrpc: '2.0' as const, id, error: { code, message, ...(data ? { data } : {}) } };
}

/** An answer given before the SDK sees the message: the HTTP status and the JSON-RPC body. */
export interface EarlyAnswer {
  status: number;
  body: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const validId = (value: unknown): value is string | number =>
  typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));

function invalidRequest(message: string): EarlyAnswer {
  const body = new Refusal(
    'invalid_request',
    { issues: [{ path: '(body)', message }] },
    'Send one JSON-RPC 2.0 message: {"jsonrpc":"2.0","id":1,"method":"tools/list"}.',
  ).body();
  return {
    status: 400,
    body: jsonRpcError(null, JSONRPC.invalidRequest, `Invalid Request: ${message}`, body),
  };
}

const TOOLS_CALL_HINT = 'tools/call takes params {"name": "<a tool from tools/list>", "arguments": {…}}.';

function invalidParams(
  id: Id,
  issues: { path: string; message: string }[],
  hint = TOOLS_CALL_HINT,
): EarlyAnswer {
  const body = new Refusal('invalid_request', { issues }, hint).body();
  return {
    status: 200,
    body: jsonRpcError(
      id,
      JSONRPC.invalidParams,
      `Invalid params: ${issues[0]?.message ?? 'see issues'}`,
      body,
    ),
  };
}

/** The methods this server answers, each with the SDK's own request schema (else the SDK answers -32603 with zod's dump). */
const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

function paramsAnswer(message: Record<string, unknown>): EarlyAnswer | null {
  const schema = REQUEST_SCHEMAS[message.method as string];
  const parsed = schema?.safeParse(message);
  if (!parsed || parsed.success) return null;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.join('.') || 'params',
    message: issue.message,
  }));
  return invalidParams(
    validId(message.id) ? message.id : null,
    issues,
    `${String(message.method)} takes the params the MCP specification gives it; see issues.`,
  );
}

/** A JSON-RPC message is a request or notification (method) or a response (id with result or error). */
function shapeProblem(message: unknown): string | null {
  if (Array.isArray(message)) return 'batches are not accepted; send one message per request.';
  if (!isObject(message)) return 'the body is JSON but not a JSON-RPC message object.';
  if (message.jsonrpc !== '2.0') return '`jsonrpc` must be the string "2.0".';
  if ('id' in message && message.id !== null && !validId(message.id))
    return '`id` must be a string or an integer.';
  if (typeof message.method === 'string') {
    if ('params' in message && !isObject(message.params)) return '`params` must be an object.';
    return null;
  }
  if ('result' in message || 'error' in message)
    return validId(message.id) ? null : 'a response needs the `id` of the request it answers.';
  return '`method` (a string) is missing.';
}

/** tools/call in our own words: params and the tool name are checked here, arguments against the tool's schema. */
function toolCallAnswer(message: Record<string, unknown>, tools: CivitasTool[]): EarlyAnswer | null {
  const id = validId(message.id) ? message.id : null;
  const params = message.params;
  if (!isObject(params))
    return invalidParams(id, [
      { path: 'params', message: 'tools/call needs `params` with the tool `name` and its `arguments`.' },
    ]);
  if (typeof params.name !== 'string')
    return invalidParams(id, [
      { path: 'params.name', message: '`params.name` must name a tool from tools/list.' },
    ]);
  const tool = tools.find((candidate) => candidate.name === params.name);
  if (!tool)
    return invalidParams(id, [
      {
        path: 'params.name',
        message: `No tool is named ${JSON.stringify(params.name.slice(0, 100))}; tools/list names the ${tools.length} tools.`,
      },
    ]);
  if ('arguments' in params && params.arguments !== undefined && !isObject(params.arguments)) {
    return invalidParams(id, [
      { path: 'params.arguments', message: '`params.arguments` must be an object.' },
    ]);
  }
  const envelope = paramsAnswer(message);
  if (envelope) return envelope;
  const parsed = z.object(tool.inputSchema).safeParse(params.arguments ?? {});
  if (parsed.success) return null;
  // A refusal of the tool's own arguments is a tool result (isError), so a model can correct itself.
  const body = new Refusal('invalid_request', {
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.join('.') || '(arguments)',
      message: issue.message,
    })),
  }).body();
  return {
    status: 200,
    body: {
      jsonrpc: '2.0',
      id,
      result: toolRefusal(tool, body),
    },
  };
}

/**
 * Checks what the SDK would otherwise answer in its runtime's words (or as -32603): a body that
 * is not a JSON-RPC message (-32600), params a method cannot take, a tools/call without params
 * or naming no tool (-32602). Null: the SDK may handle the message.
 */
export function earlyAnswer(body: unknown, tools: CivitasTool[]): EarlyAnswer | null {
  const problem = shapeProblem(body);
  if (problem) return invalidRequest(problem);
  const message = body as Record<string, unknown>;
  if (!('id' in message) || typeof message.method !== 'string') return null;
  return message.method === 'tools/call' ? toolCallAnswer(message, tools) : paramsAnswer(message);
}
