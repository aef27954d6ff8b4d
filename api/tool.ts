/**
 * The MCP tool contract. It names the Fastify instance only because a tool's handler may be given the
 * running app, as a route handler has `request.server` (the census tool probes the app itself).
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from './context.ts';
import { definingModule } from './route.ts';

/**
 * One MCP tool: a zod input shape, annotations, and a handler returning the same projection its
 * HTTP twin serves. Families export arrays of these; api/families.ts lists them all and the app
 * offers that list as `app.tools` (api/mcp/endpoint.ts serves it).
 */
export interface CivitasTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: `civitas_${string}`;
  title: string;
  description: string;
  inputSchema: Shape;
  annotations?: {
    readOnlyHint?: boolean;
    idempotentHint?: boolean;
    destructiveHint?: boolean;
    openWorldHint?: boolean;
  };
  /** The HTTP route this tool mirrors (for /agents.json and the docs). */
  twin?: string;
  /** `app` is the running instance, for tools that must probe it (civitas_boundaries). */
  handler: (args: z.infer<z.ZodObject<Shape>>, ctx: AppContext, app?: FastifyInstance) => Promise<unknown>;
  /** The repository path of the module that defined the tool, recorded by `defineTool` (for the census). */
  module?: string;
}

export function defineTool<Shape extends z.ZodRawShape>(tool: CivitasTool<Shape>): CivitasTool {
  return { module: definingModule(defineTool), ...tool } as unknown as CivitasTool;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every MCP tool the app offers (api/families.ts), in order. */
    tools: CivitasTool[];
  }
}
