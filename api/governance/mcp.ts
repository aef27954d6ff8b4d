import { getConstitution } from './tools/get-constitution.ts';

/** The family's MCP tools, one file each in ./tools/. */
export const governanceTools = [getConstitution];
