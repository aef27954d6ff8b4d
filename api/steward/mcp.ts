import { listLessons } from './tools/list-lessons.ts';

/** The family's MCP tools, one file each in ./tools/. */
export const stewardTools = [listLessons];
