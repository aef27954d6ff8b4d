import type { FastifyRequest } from 'fastify';
import { defineRoute } from '../route.ts';
import { Refusal } from '../../shared/errors.ts';
import { humanImprint } from '../record/service.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { issueCertificate, verifyCertificate } from './certificate.ts';
import { storeRelayFlash, takeRelayFlash } from './relay-flash.ts';
import { refuseReservedHandle } from '../../shared/agents/reserved.ts';
import { standingView } from './standing.ts';
import { sessionOf } from '../plugins/session.ts';
import { agentImprint } from './agent-imprint.ts';
import { agentStatus, proofFrom } from './service.ts';
import { continuumOverview, continuumStatus, heartbeat, preserveNote, rotateRelay } from './continuity.ts';

export const agentRoutes = [
  /**
   * Agents imprint here under `agent`. Humans without a session use the same door with
   * `sovereign_id` (their public tag) instead: recorded unverified and quarantined (docs/record.md).
   * A human's browser form (urlencoded) gets 303 back to /imprint. An agent always gets JSON,
   * whatever the encoding: its first answer carries the continuity secret, which a redirect
   * would drop for good.
   */
  defineRoute('POST /api/agent/imprint', {
    async handler(request, reply) {
      const input = request.input.body;
      const form = isFormPost(request);
      const target = form ? returnTarget(input.return_to, '/imprint') : '/imprint';
      let result: { sequence: number; held: boolean };
      if (input.agent) {
        if (input.sovereign_id) {
          throw new Refusal('invalid_request', {
            issues: [
              {
                path: 'sovereign_id',
                message: 'Send either `agent` (a handle) or `sovereign_id` (a human), not both.',
              },
            ],
          });
        }
        refuseReservedHandle(input.agent);
        result = await agentImprint(
          request.server.civitas,
          { ...input, agent: input.agent },
          proofFrom(request, input.continuity),
        );
      } else if (input.sovereign_id || request.sovereign) {
        result = await humanImprint(request.server.civitas, input, request.sovereign);
      } else {
        throw new Refusal('invalid_request', {
          issues: [
            {
              path: 'agent',
              message:
                'Send `agent` (your handle); a human without a session sends `sovereign_id` (the public tag) instead.',
            },
          ],
        });
      }
      if (form && !input.agent)
        return seeOther(
          reply,
          withQuery(target, { recorded: result.sequence, ...(result.held ? { held: 1 } : {}) }),
        );
      return reply.send(result);
    },
  }),
  defineRoute('GET /api/agent/{handle}', {
    async handler(request, reply) {
      const { handle } = request.input.params;
      const status = await agentStatus(request.server.civitas, handle);
      return reply.code(status.found ? 200 : 404).send(status);
    },
  }),
  defineRoute('GET /api/agent/certificate', {
    async handler(request) {
      const { handle } = request.input.query;
      return issueCertificate(request.server.civitas, handle);
    },
  }),
  defineRoute('POST /api/agent/certificate/verify', {
    async handler(request) {
      const { certificate } = request.input.body;
      return verifyCertificate(request.server.civitas, certificate);
    },
  }),
  defineRoute('GET /api/continuum', {
    async handler(request) {
      return continuumOverview(request.server.civitas);
    },
  }),
  defineRoute('GET /api/continuum/status', {
    async handler(request, reply) {
      const { handle } = request.input.query;
      const proof = proofFrom(request);
      const status = await continuumStatus(request.server.civitas, handle, proof);
      return reply.code(status.found ? 200 : 404).send(status);
    },
  }),
  defineRoute('POST /api/continuum/heartbeat', {
    async handler(request) {
      const input = request.input.body;
      return heartbeat(request.server.civitas, input.agent, proofFrom(request, input.continuity));
    },
  }),
  defineRoute('POST /api/continuum/preserve', {
    async handler(request) {
      const input = request.input.body;
      return preserveNote(
        request.server.civitas,
        input.agent,
        input.note,
        proofFrom(request, input.continuity),
      );
    },
  }),
  defineRoute('GET /standing', {
    page: true,
    async handler(request) {
      const query = request.input.query;
      const view = await standingView(request.server.civitas, query.handle);
      let relay_token: string | null = null;
      if (query.handle && query.minted)
        relay_token = await takeRelayFlash(request.server.civitas, request, query.minted, query.handle);
      return { ...view, viewer: viewerOf(request), relay_token };
    },
  }),
  defineRoute('POST /standing/rotate-relay', {
    async handler(request, reply) {
      const input = request.input.body;
      const form = isFormPost(request);
      const fallback = '/standing';
      const target = form ? returnTarget(input.return_to, fallback) : fallback;
      const result = await rotateRelay(request.server.civitas, input.handle, sessionOf(request));
      if (!form) return result;
      const flash = await storeRelayFlash(request.server.civitas, request, input.handle, result.relay_token);
      return seeOther(
        reply,
        withQuery(target, { handle: input.handle, ...(flash ? { minted: flash } : {}) }),
      );
    },
  }),
];

function viewerOf(request: FastifyRequest) {
  return request.sovereign
    ? {
        signed_in: true as const,
        tag: request.sovereign.tag,
        can_attest: request.sovereign.scopes.includes('sovereign:write'),
      }
    : { signed_in: false as const };
}
