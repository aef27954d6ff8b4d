import { defineTool } from '../tool.ts';
import { oracleOffer } from './service.ts';

/** The Oracle quote over MCP: the same quote as GET /api/oracle. Read-only; it never pays. */
export const treasuryTools = [
  defineTool({
    name: 'civitas_oracle_quote',
    title: 'Oracle quote',
    description:
      'What one Oracle report (a deep reading of the public record) covers and costs, and its doors. A quote is not a purchase: this tool never pays, and payment must never be sent automatically. Same projection as GET /api/oracle.',
    inputSchema: {},
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    twin: 'GET /api/oracle',
    async handler(_args, ctx) {
      return oracleOffer(ctx);
    },
  }),
];
