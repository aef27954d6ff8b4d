/**
 * Discovery's operations: the machine directory and this route description (shared/contract.ts).
 */
import { z } from 'zod';
import { SCOPES } from '../registry/types.ts';

const ok = z.literal(true);

/** A public signing key (JWK, Ed25519) as /agents.json publishes it. */
const publicJwk = z.looseObject({ kty: z.string().optional(), kid: z.string().optional() });

/** /agents.json: the machine directory (INTERFACE.md item 9). */
export const agentDirectorySchema = z.object({
  ok,
  name: z.literal('civitas'),
  description: z.string(),
  version: z.string().describe('the app version'),
  origin: z.string(),
  discovery_order: z.array(
    z.object({
      step: z.number().int(),
      fetch: z.string().optional(),
      action: z.string().optional(),
      why: z.string(),
    }),
  ),
  contracts: z.array(
    z.object({
      name: z.string().describe('sovereign_session, agent_continuity or paid_capabilities'),
      for: z.string(),
      how: z.string(),
      scheme: z.string().optional(),
      scopes: z.array(z.string()).optional(),
      headers: z.array(z.string()).optional(),
      rotate: z.string().optional(),
      separate_from: z.array(z.string()).optional(),
    }),
  ),
  free_reads: z.string(),
  openapi: z.string(),
  mcp: z.object({ endpoint: z.string(), transport: z.string(), tools: z.array(z.string()) }),
  llms_txt: z.string(),
  feeds: z.array(z.object({ path: z.string(), type: z.string(), title: z.string(), url: z.string() })),
  jwks: z.object({ keys: z.array(publicJwk) }),
  errors: z.object({
    shape: z.object({ ok: z.literal(false), reason: z.string(), hint: z.string() }),
    rules: z.array(z.string()),
  }),
  limits: z.object({
    body_bytes: z.number().int(),
    imprint_body_chars: z.number().int(),
    record_window: z.number().int(),
    rate_per_minute: z.object({ reads: z.number().int(), writes: z.number().int() }),
    actor_tag_space: z.number().int(),
  }),
  relay_client: z.string(),
  boundaries: z.object({ machine: z.string(), human: z.string() }),
});

/** /openapi.json: an OpenAPI 3.1.0 document (its own schema is the OpenAPI specification's). */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  servers: z.array(z.object({ url: z.string() })),
  tags: z.array(z.object({ name: z.string(), description: z.string() })),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.unknown()),
});

const count = z.number().int().min(0);

/** /atlas asked for JSON: every published route and whether it is realised now (api/discovery/atlas.ts). */
export const atlasSchema = z.object({
  ok,
  total: count,
  real: count,
  not_implemented: count,
  families: z.record(z.string(), z.object({ total: count, real: count })),
  routes: z.array(
    z.object({
      path: z.string(),
      methods: z.array(z.enum(['GET', 'HEAD', 'POST'])),
      kind: z.enum(['page', 'asset', 'api', 'feed', 'mutation', 'hybrid']),
      family: z.string(),
      summary: z.string(),
      scope: z.enum(SCOPES).nullable(),
      real: z.boolean().describe('every method answers (not 501)'),
    }),
  ),
});
