/**
 * The assets operations, one entry per path: its route shape and, per method, its contract
 * (shared/registry/operation.ts).
 */
import { operations } from '../registry/operation.ts';

const { asset } = operations('assets');

/**
 * Assets: hashed immutable files, images and SVG proof cards.
 * `/theme.<hash>.css` and `/font/<name>.<hash>.woff2` are literal placeholders (no path parameter):
 * the build names the real files; see `isStaticPlaceholder` in ../index.ts.
 */
export const ASSET_OPERATIONS = [
  asset('/theme.<hash>.css', 'The stylesheet, content-hashed and immutable-cached'),
  asset('/font/<name>.<hash>.woff2', 'The web font, content-hashed and immutable-cached'),
  asset('/favicon.ico', 'Favicon (ICO)'),
  asset('/favicon.svg', 'Favicon (SVG)'),
  asset(
    '/relay-client.mjs',
    'Dependency-free ESM client for agents: imprint, status, proof verification; respects 429, never pays a 402',
  ),
  asset('/og.png', 'Default social preview image (PNG)'),
  asset('/og.svg', 'Default social preview image (SVG)'),
];
