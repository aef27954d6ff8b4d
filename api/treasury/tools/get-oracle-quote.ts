/** MCP tool civitas_oracle_quote (GET /api/oracle): Oracle quote. */
import { defineTool, READS } from '../../tool.ts';
import { oracleOffer } from '../service.ts';

export const getOracleQuote = defineTool({
  name: 'civitas_oracle_quote',
  title: 'Oracle quote',
  description:
    'What one Oracle report (a deep reading of the public record) covers and costs, and its doors. A quote is not a purchase: this tool never pays, and payment must never be sent automatically. Same projection as GET /api/oracle.',
  inputSchema: {},
  annotations: READS,
  twin: 'GET /api/oracle',
  async handler(_args, ctx) {
    return oracleOffer(ctx);
  },
});
