/**
 * The build's outputs: what scripts/build.ts promises the API (dist/assets.json and the files it
 * names), the cards and favicons, and every prerendered page. Needs `npm run build` first
 * (`npm test` does it); a missing dist/ fails loudly rather than skipping.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { listAstroPageDetails } from '../../api/site/page-index.ts';
import { VIEWER_SCRIPT } from '../../shared/site-scripts.ts';
import { at } from '../helpers/elements.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = join(root, 'dist');
const client = join(dist, 'client');

interface AssetsManifest {
  theme: string;
  font: string;
  fonts: string[];
}

let assets: AssetsManifest;

beforeAll(() => {
  if (!existsSync(join(dist, 'assets.json'))) {
    throw new Error(
      `dist/assets.json is missing — the site has not been built. Run \`npm run build\` (npm test runs it first).`,
    );
  }
  assets = JSON.parse(readFileSync(join(dist, 'assets.json'), 'utf8')) as AssetsManifest;
});

const file = (urlPath: string) => join(client, urlPath.replace(/^\//, ''));

describe('dist/assets.json', () => {
  it('names a hashed stylesheet at the site root that exists and is the only one', () => {
    expect(assets.theme).toMatch(/^\/theme\.[A-Za-z0-9_-]{6,}\.css$/);
    expect(existsSync(file(assets.theme))).toBe(true);
    expect(readdirSync(client).filter((f) => f.endsWith('.css'))).toEqual([assets.theme.slice(1)]);
  });

  it('names hashed woff2 fonts under /font/ that exist, and the stylesheet uses them', () => {
    expect(assets.font).toMatch(/^\/font\/inter-[a-z0-9-]+\.[A-Za-z0-9_-]{6,}\.woff2$/);
    expect(assets.fonts).toContain(assets.font);
    const css = readFileSync(file(assets.theme), 'utf8');
    for (const font of assets.fonts) {
      expect(font).toMatch(/^\/font\/.+\.[A-Za-z0-9_-]{6,}\.woff2$/);
      const bytes = readFileSync(file(font));
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('wOF2');
      expect(css).toContain(font);
    }
  });
});

describe('cards and favicons', () => {
  it('og.png is a 1200×630 PNG', () => {
    const png = readFileSync(file('/og.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
  });

  it('og.svg is a 1200×630 SVG', () => {
    const svg = readFileSync(file('/og.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('width="1200"');
    expect(svg).toContain('height="630"');
  });

  it('favicon.ico is a valid ICO whose entries are in-bounds PNG images', () => {
    const ico = readFileSync(file('/favicon.ico'));
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    expect(count).toBeGreaterThan(0);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const width = ico.readUInt8(entry) || 256;
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      expect(offset + length).toBeLessThanOrEqual(ico.length);
      const image = ico.subarray(offset, offset + length);
      expect(image.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(image.readUInt32BE(16)).toBe(width);
      sizes.push(width);
    }
    expect(sizes).toContain(32);
  });

  it('favicon.svg is served from the site root', () => {
    expect(readFileSync(file('/favicon.svg'), 'utf8')).toContain('<svg');
  });
});

describe('prerendered pages', () => {
  const pages = [
    '/lexicon',
    '/legal',
    '/legal/proprietary',
    '/changelog',
    '/changelog/0.1.0',
    '/privacy',
    '/terms',
    '/contact',
    '/ip',
  ];

  it.each(pages)('%s exists, links the hashed stylesheet, preloads the font and has one h1', (page) => {
    const path = join(client, page, 'index.html');
    expect(existsSync(path), `${path} was not generated`).toBe(true);
    const html = readFileSync(path, 'utf8');
    expect(html).toContain(`<link rel="stylesheet" href="${assets.theme}">`);
    expect(html).toContain(`href="${assets.font}" as="font"`);
    expect(html).toContain('data-theme="system"');
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    // The one script a prerendered page carries is the hash-allowed signed-in indicator.
    expect(html.replace(`<script>${VIEWER_SCRIPT}</script>`, '')).not.toMatch(/<script/);
    expect(html).not.toMatch(/\sstyle="/);
  });

  it('every page file that prerenders produced HTML (one per changelog section for [tag])', () => {
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    const tags = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => at(m, 1).toLowerCase());
    expect(tags).toContain('0.1.0');
    for (const page of listAstroPageDetails().filter((p) => p.prerender)) {
      const paths = page.route.includes('{tag}')
        ? tags.map((t) => page.route.replace('{tag}', t))
        : [page.route];
      for (const p of paths)
        expect(existsSync(join(client, p, 'index.html')), `${p} not prerendered`).toBe(true);
    }
  });

  it('live pages are not prerendered and the SSR handler exists', () => {
    const live = listAstroPageDetails()
      .filter((p) => !p.prerender)
      .map((p) => p.route);
    expect(live).toContain('/status');
    expect(existsSync(join(client, 'status', 'index.html'))).toBe(false);
    expect(existsSync(join(dist, 'server', 'entry.mjs'))).toBe(true);
  });
});
