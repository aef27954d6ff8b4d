import { agentTools } from '../agents/mcp.ts';
import { boundaryTools } from '../boundaries/mcp.ts';
import { ledgerTools } from '../ledger/mcp.ts';
import { checksTools } from '../organism/checks/mcp.ts';
import { peopleTools } from '../people/mcp.ts';
import { recordTools } from '../record/mcp.ts';
import { stewardTools } from '../steward/mcp.ts';
import { governanceTools } from '../governance/mcp.ts';
import { calibrationTools } from '../calibration/mcp.ts';
import { treasuryTools } from '../treasury/mcp.ts';
import type { CivitasTool } from './tool.ts';

/**
 * Every MCP tool, from every family: exactly the 20 of INTERFACE.md / DESIGN.md section 5 (a route
 * without a tool here is still fully served over HTTP). /agents.json and GET /mcp list these.
 */
export const MCP_TOOLS: CivitasTool[] = [...peopleTools, ...agentTools, ...recordTools, ...boundaryTools, ...ledgerTools, ...stewardTools, ...checksTools, ...governanceTools, ...calibrationTools, ...treasuryTools];
