/**
 * The MCP tool contract. It names the Fastify instance only because a tool's handler may be given the
 * running app, as a route handler has `request.server` (the census tool probes the app itself).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from './context.ts';
import { CONTRACTS, type ContractKey } from '../shared/registry/contracts.ts';
import { mcpOutputSchema } from '../shared/mcp/output-schema.ts';

/**
 * The four hints of MCP's ToolAnnotations, every one stated: read-only (changes nothing),
 * destructive (may undo or erase), idempotent (a repeat changes nothing more) and open-world
 * (reaches beyond civitas's own records).
 */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A tool that only reads civitas's own records. */
export const READS: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** A tool that adds a record (an imprint, a heartbeat, feedback) and receipts it: never erases, never the same twice. */
export const ADDS: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/**
 * One MCP tool: a zod input shape, its four annotation hints, the HTTP route it mirrors and a
 * handler returning the same projection that route serves. Each tool is one file in its family's
 * `tools/` folder (named verb first, as the MCP reference servers do); the family's `mcp.ts` lists
 * them, api/families.ts lists the families and the app offers that list as `app.tools`.
 */
export interface CivitasTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: `civitas_${string}`;
  title: string;
  description: string;
  inputSchema: Shape;
  annotations: ToolHints;
  /** The HTTP route this tool mirrors: a registry key with a contract (a typo does not compile). */
  twin: ContractKey;
  /** `app` is the running instance, for tools that must probe it (civitas_boundaries). */
  handler: (args: z.infer<z.ZodObject<Shape>>, ctx: AppContext, app?: FastifyInstance) => Promise<unknown>;
}

export function defineTool<Shape extends z.ZodRawShape>(tool: CivitasTool<Shape>): CivitasTool {
  return tool as unknown as CivitasTool;
}

/**
 * A tool's `outputSchema`: its twin's answer schema, so the structured content an MCP client
 * validates is the projection the route publishes in /openapi.json. MCP takes an object schema
 * only: a twin whose answer is a union of objects (imprint, certificate verify, why) is given as
 * one covering object that keeps the union exactly (shared/mcp/output-schema.ts).
 */
export function outputSchemaOf(tool: CivitasTool): z.ZodObject | undefined {
  if (!outputSchemas.has(tool.twin))
    outputSchemas.set(
      tool.twin,
      mcpOutputSchema((CONTRACTS[tool.twin] as { response?: z.ZodType }).response),
    );
  return outputSchemas.get(tool.twin);
}
/** Built once per twin: every /mcp request builds a fresh server over the same tools. */
const outputSchemas = new Map<ContractKey, z.ZodObject | undefined>();

/**
 * A tool's refusal as an MCP tool result (isError), in the one error shape. A client validates any
 * structuredContent against a declared output schema, errors included (SDK 1.32), so a tool with
 * one refuses in text content only; a tool without one also carries the body as structuredContent.
 */
export function toolRefusal(tool: CivitasTool, body: unknown) {
  return {
    isError: true as const,
    content: [{ type: 'text' as const, text: JSON.stringify(body) }],
    ...(outputSchemaOf(tool) ? {} : { structuredContent: body as Record<string, unknown> }),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every MCP tool the app offers (api/families.ts), in order. */
    tools: CivitasTool[];
  }
}
