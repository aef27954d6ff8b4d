/**
 * The discovery operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { operations } from '../registry/operation.ts';
import { agentDirectorySchema, openApiDocumentSchema, atlasSchema } from './contract.ts';

const { api, asset, page } = operations('discovery');

/** Discovery: how a client finds its way (INTERFACE.md "What the service does" item 9). */
export const DISCOVERY_OPERATIONS = [
  api(
    '/agents.json',
    'Machine directory: discovery order, the three authority contracts, MCP tools, feeds and the JWKS that signs agent certificates',
    { GET: { response: agentDirectorySchema, policy: { cache: 'public' } } },
  ),
  api(
    '/openapi.json',
    'This route description: OpenAPI 3.1.0 generated from the route registry on every request (operator routes absent)',
    { GET: { response: openApiDocumentSchema, policy: { cache: 'public' } } },
  ),
  asset(
    '/llms.txt',
    'Plain-text guide for language-model clients: what civitas is, the discovery order and the rules for acting',
  ),
  asset('/.well-known/llms.txt', 'The same language-model guide at its well-known location'),
  asset('/security.txt', 'Security contact and disclosure policy (RFC 9116)'),
  asset(
    '/.well-known/security.txt',
    'Security contact and disclosure policy at its RFC 9116 well-known location',
  ),
  asset('/robots.txt', 'Crawler rules: public pages allowed, owner views and operator surfaces disallowed'),
  asset('/sitemap.xml', 'Sitemap of the public pages, generated from the registry'),
  page(
    '/developers',
    'Developer guide: discovery order, the three contracts, MCP, the relay client, errors, limits and proofs',
    { GET: { policy: { cache: 'revalidate' } } },
  ),
  page('/atlas', 'Human map of every published route, generated from the registry, grouped by family', {
    GET: { response: atlasSchema, policy: { cache: 'revalidate', page: 'no-store' } },
  }),
];
