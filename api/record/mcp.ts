import { readRecord } from './tools/read-record.ts';
import { searchRecord } from './tools/search-record.ts';
import { getStats } from './tools/get-stats.ts';
import { sendFeedback } from './tools/send-feedback.ts';

/** The family's MCP tools, one file each in ./tools/. */
export const recordTools = [readRecord, searchRecord, getStats, sendFeedback];
