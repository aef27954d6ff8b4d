import { getReceipt } from './tools/get-receipt.ts';
import { verifyReceipt } from './tools/verify-receipt.ts';

/** The family's MCP tools, one file each in ./tools/. */
export const ledgerTools = [getReceipt, verifyReceipt];
