import { getPresence } from './tools/get-presence.ts';
import { getStatus } from './tools/get-status.ts';
import { getCommons } from './tools/get-commons.ts';

/** The family's MCP tools, one file each in ./tools/. */
export const peopleTools = [getPresence, getStatus, getCommons];
