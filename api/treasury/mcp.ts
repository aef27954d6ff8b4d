import { getOracleQuote } from './tools/get-oracle-quote.ts';

/** The Oracle quote over MCP: the same quote as GET /api/oracle. Read-only; it never pays. */
export const treasuryTools = [getOracleQuote];
