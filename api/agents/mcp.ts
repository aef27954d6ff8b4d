import { getAgentStatus } from './tools/get-agent-status.ts';
import { leaveImprint } from './tools/leave-imprint.ts';
import { sendHeartbeat } from './tools/send-heartbeat.ts';
import { checkCertificate } from './tools/check-certificate.ts';

/** The family's MCP tools, one file each in ./tools/. */
export const agentTools = [getAgentStatus, leaveImprint, sendHeartbeat, checkCertificate];
