// Where the build puts its hashed assets. The API publishes these names (dist/assets.json), so they are
// part of the contract: the one stylesheet at the site root as /theme.<hash>.css, fonts under
// /font/<name>.<hash>.woff2, anything else under /_astro/.
// Plain .mjs (not .ts) because astro.config.mjs imports it before Vite is running.

/** @param {{ names?: string[] }} asset */
export function assetFileNames(asset) {
  const name = asset.names?.[0] ?? '';
  if (name.endsWith('.css')) return 'theme.[hash][extname]';
  if (/\.(woff2?|ttf|otf)$/.test(name)) return 'font/[name].[hash][extname]';
  return '_astro/[name].[hash][extname]';
}
