import { proveBoundaries } from './tools/prove-boundaries.ts';

/** The family's MCP tools, one file each in ./tools/. */
export const boundaryTools = [proveBoundaries];
