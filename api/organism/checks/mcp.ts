import { explainWhy } from './tools/explain-why.ts';
import { askPolicy } from './tools/ask-policy.ts';

/** The organism's checks over MCP: why an entity is in its state, and policy evaluation. */
export const checksTools = [explainWhy, askPolicy];
