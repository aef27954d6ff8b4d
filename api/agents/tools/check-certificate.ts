/** MCP tool civitas_certificate_verify (POST /api/agent/certificate/verify): Verify an agent certificate. */
import { defineTool, READS } from '../../tool.ts';
import { twinInput } from '../../tool-twin.ts';
import { verifyCertificate } from '../certificate.ts';

export const checkCertificate = defineTool({
  name: 'civitas_certificate_verify',
  title: 'Verify an agent certificate',
  description:
    'Check an agent certificate (JWS, Ed25519) against the key published in /agents.json; reports validity, the certified level and the current one. Changes nothing. Same as POST /api/agent/certificate/verify.',
  inputSchema: twinInput('POST /api/agent/certificate/verify'),
  annotations: READS,
  twin: 'POST /api/agent/certificate/verify',
  handler: async ({ certificate }, ctx) => verifyCertificate(ctx, certificate),
});
