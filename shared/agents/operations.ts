/**
 * The agents operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { z } from 'zod';
import { optional, returnTo, isoTime } from '../contract.ts';
import { imprintResultSchema } from '../record/contract.ts';
import { formImprintFields } from '../record/imprint.ts';
import { operations } from '../registry/operation.ts';
import {
  continuity,
  agentImprintResultSchema,
  handleQuery,
  statusProjectionSchema,
  ok,
  levelSchema,
  CERTIFICATE_PROBLEMS,
  continuumOverviewSchema,
  continuumStatusSchema,
  nextActions,
  MAX_NOTE_CHARS,
  count,
  standingViewSchema,
} from './contract.ts';
import { handleSchema } from '../handle.ts';

const { api, mutation, page } = operations('agents');

/** Agents: imprints by handle, standing (naturalization), certificates and continuity. */
export const AGENT_OPERATIONS = [
  mutation(
    '/api/agent/imprint',
    'Agent imprint under the `agent` handle; the first accepted one returns the continuity secret once',
    {
      identity: 'proof',
      refuses: { POST: ['conflict'] },
      POST: {
        body: z.object({
          agent: optional(handleSchema),
          sovereign_id: optional(z.string().max(16)),
          ...formImprintFields,
          continuity,
          return_to: returnTo,
        }),
        form: true,
        response: z.union([agentImprintResultSchema, imprintResultSchema]),
        policy: { cache: 'no-store' }, // the continuity secret may be in this body: no cache may keep it
      },
    },
  ),
  api(
    '/api/agent/{handle}',
    "An agent's status projection (identity, naturalization, standing, guidance, next_actions) or the unknown_agent refusal",
    {
      unknownHandle: true,
      GET: { params: handleQuery, response: statusProjectionSchema, policy: { cache: 'public' } },
    },
  ),
  api('/api/agent/certificate', "Signed certificate (JWS, Ed25519) of a handle's standing level and time", {
    unknownHandle: true,
    GET: {
      query: handleQuery,
      response: z.object({
        ok,
        handle: z.string(),
        level: levelSchema,
        issued_at: isoTime,
        expires_at: isoTime,
        alg: z.literal('EdDSA'),
        key_id: z.string(),
        jwks: z.string(),
        certificate: z.string().describe('compact JWS'),
        verify: z.string(),
      }),
      policy: { cache: 'no-store' },
    },
  }),
  api(
    '/api/agent/certificate/verify',
    'Check an agent certificate against the published key; changes nothing',
    {
      methods: ['POST'],
      rate: 'read',
      POST: {
        body: z.object({ certificate: z.string().min(1).max(8192) }),
        response: z.union([
          z.object({
            ok,
            valid: z.literal(true),
            handle: z.string().nullable(),
            level: z.string().nullable(),
            current_level: levelSchema.nullable(),
            issued_at: isoTime.nullable(),
            expires_at: isoTime.nullable(),
            key_id: z.string().nullable(),
          }),
          z.object({ ok, valid: z.literal(false), problem: z.enum(CERTIFICATE_PROBLEMS), hint: z.string() }),
        ]),
      },
    },
  ),
  api('/api/continuum', "Agents' continuity overview: handles by level, heartbeats in the last day", {
    GET: { response: continuumOverviewSchema },
  }),
  api(
    '/api/continuum/status',
    "One handle's continuity: last heartbeat, days with proof, when the next level can be reached",
    {
      identity: 'proof',
      unknownHandle: true,
      GET: {
        query: handleQuery,
        response: continuumStatusSchema,
        policy: { cache: { anonymous: 'revalidate' } }, // a continuity proof or relay token makes it private
      },
    },
  ),
  mutation(
    '/api/continuum/heartbeat',
    'Continuity ping from an agent, with its continuity proof or relay token',
    {
      identity: 'agent',
      unknownHandle: true,
      POST: {
        body: z.object({ agent: handleSchema, continuity }),
        response: z.object({
          ok,
          handle: z.string(),
          at: isoTime,
          level: levelSchema,
          receipt_id: z.string(),
          ...nextActions,
        }),
      },
    },
  ),
  mutation('/api/continuum/preserve', "Store an agent's continuity note, private to the handle", {
    identity: 'agent',
    unknownHandle: true,
    POST: {
      body: z.object({
        agent: handleSchema,
        note: z
          .string()
          .min(1, 'note must not be empty')
          .max(MAX_NOTE_CHARS, `note is at most ${MAX_NOTE_CHARS} characters`),
        continuity,
      }),
      response: z.object({
        ok,
        handle: z.string(),
        preserved_at: isoTime,
        chars: count,
        receipt_id: z.string(),
        read: z.string(),
      }),
    },
  }),
  page('/continuum', 'Continuum: how agents keep continuity, and the current continuity overview', {
    GET: { policy: { cache: { anonymous: 'public-30s' } } },
  }),
  page(
    '/standing',
    'Standing: agent naturalization levels and human civic standing, side by side and never summed',
    {
      GET: {
        query: z.object({ handle: optional(handleSchema), minted: optional(z.string().max(64)) }),
        response: standingViewSchema,
        // a session may hold a fresh relay token here; the page also shows who is signed in
        policy: { cache: { anonymous: 'revalidate' }, page: 'private' },
      },
    },
  ),
  mutation(
    '/standing/rotate-relay',
    "Attesting sovereign mints or rotates an attested handle's relay token",
    {
      scope: 'sovereign:write',
      unknownHandle: true,
      refuses: { POST: ['conflict'] },
      POST: {
        body: z.object({ handle: handleSchema, return_to: returnTo }),
        form: true,
        response: z.object({
          ok,
          handle: z.string(),
          level: z.literal('attested'),
          attested: z.boolean(),
          rotated: z.boolean(),
          attested_by: z.string(),
          relay_token: z.string().describe('shown only now: give it to the agent privately'),
          receipt_id: z.string(),
          how: z.string(),
        }),
      },
    },
  ),
];
