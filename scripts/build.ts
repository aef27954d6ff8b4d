/**
 * npm run build: the Astro site, then the build-time cards and the asset manifest.
 *
 *   dist/client/        static files (prerendered pages, /theme.<hash>.css, /font/*.woff2, favicons, og)
 *   dist/server/        Astro's SSR handler (entry.mjs, middleware mode) for live pages
 *   dist/assets.json    { theme, font, fonts } — the concrete hashed names the API publishes
 *   dist/module-graph.json  the code's imports and definitions, for the boundary inventory
 *
 * Works from a clean clone; starts by removing dist/ so no stale hashed file survives. Skips itself
 * when dist/ was built from the same inputs (scripts/build-inputs.ts; CIVITAS_BUILD_FORCE=1 builds).
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsHash, builtFrom, INPUTS_FILE } from './build-inputs.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const client = join(dist, 'client');

const started = performance.now();
const inputs = buildInputsHash(root);
if (builtFrom(dist, inputs)) {
  console.log(`site unchanged since the last build (inputs ${inputs.slice(0, 12)}): dist/ kept`);
  process.exit(0);
}
process.env.ASTRO_TELEMETRY_DISABLED = '1';
rmSync(dist, { recursive: true, force: true });

const { build } = await import('astro');
await build({ root, logLevel: process.env.BUILD_LOG_LEVEL === 'info' ? 'info' : 'warn' });

// /relay-client.mjs: the dependency-free agent client, bundled from shared/relay-client.
const esbuild = await import('esbuild');
await esbuild.build({
  entryPoints: [join(root, 'shared', 'relay-client', 'index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  outfile: join(client, 'relay-client.mjs'),
  logLevel: 'warning',
});

const { renderDefaultOg } = await import('../cards/og.ts');
const { renderIco } = await import('../cards/ico.ts');
const { svg, png } = await renderDefaultOg();
writeFileSync(join(client, 'og.svg'), svg);
writeFileSync(join(client, 'og.png'), png);
writeFileSync(
  join(client, 'favicon.ico'),
  renderIco(readFileSync(join(root, 'site', 'public', 'favicon.svg'), 'utf8')),
);

const themes = readdirSync(client).filter((f) => /^theme\.[\w-]+\.css$/.test(f));
if (themes.length !== 1) {
  throw new Error(
    `expected exactly one dist/client/theme.<hash>.css, found ${themes.length}: ${themes.join(', ')}. ` +
      'The API publishes one stylesheet: put styles in site/styles/theme.css, not in <style> blocks of pages or components.',
  );
}
const fonts = existsSync(join(client, 'font'))
  ? readdirSync(join(client, 'font'))
      .filter((f) => f.endsWith('.woff2'))
      .map((f) => `/font/${f}`)
  : [];
const font = fonts.find((f) => f.includes('-400-')) ?? fonts[0];
if (!font) throw new Error('no font/<name>.<hash>.woff2 was emitted');

const manifest = { theme: `/${themes[0]}`, font, fonts };
writeFileSync(join(dist, 'assets.json'), JSON.stringify(manifest, null, 2) + '\n');
const { writeModuleGraph } = await import('./module-graph.ts');
const modules = writeModuleGraph(root, dist);
writeFileSync(join(dist, INPUTS_FILE), inputs + '\n'); // last: only a complete build is ever skipped

console.log(
  `built site in ${Math.round(performance.now() - started)} ms: ${manifest.theme}, ${fonts.length} font file(s), og.png, favicon.ico, a graph of ${modules} modules`,
);
