// Astro builds the human pages. Thin on purpose: naming rules live in site/config/.
//
// Rendering mode: output 'static' — every page is prerendered to dist/client unless it opts out with
// `export const prerender = false` (live pages such as /status that read the API per request).
// The node adapter runs in 'middleware' mode: dist/server/entry.mjs exports `handler`, which
// api/site/mount.ts hands to Fastify (the API's one-origin server, or api/site/server.ts in a split deploy).
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import { assetFileNames } from './site/config/assets.mjs';

export default defineConfig({
  // Public origin for canonical and og:image URLs; unset → root-relative URLs.
  site: process.env.CIVITAS_PUBLIC_URL || undefined,
  srcDir: './site',
  publicDir: './site/public',
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  trailingSlash: 'never',
  build: {
    format: 'directory',
    inlineStylesheets: 'never',
  },
  // All POSTs go to Fastify, which checks the origin itself (request_provenance boundary).
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
  vite: {
    build: {
      assetsInlineLimit: 0,
      rolldownOptions: { output: { assetFileNames } },
    },
  },
});
