/**
 * The index of Astro's pages: every page file in site/pages with its route template (the
 * registry's notation) and whether it renders on demand. The routes report, the router and the
 * page tests read it.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { REPO_ROOT, walk } from './files.ts';

const PAGES_DIR = join(REPO_ROOT, 'site', 'pages');

export interface AstroPage {
  /** Route template in the registry's notation, e.g. `/changelog/{tag}`. */
  route: string;
  /** Source file relative to the repo, e.g. `site/pages/changelog/[tag].astro`. */
  file: string;
  /** False when the page opts out of prerendering (`export const prerender = false`). */
  prerender: boolean;
}

/** Route templates of every page file in site/pages, sorted — for the routes report. */
export function listAstroPages(): string[] {
  return listAstroPageDetails().map((p) => p.route);
}

/** Every page file in site/pages with its route template and rendering mode. */
export function listAstroPageDetails(pagesDir = PAGES_DIR): AstroPage[] {
  const out: AstroPage[] = [];
  for (const abs of walk(pagesDir)) {
    const rel = relative(pagesDir, abs).split(sep).join('/');
    const stem = /^(.*)\.(?:astro|md|mdx|ts|js)$/.exec(rel)?.[1];
    if (stem === undefined || rel.split('/').some((seg) => seg.startsWith('_'))) continue;
    const segments = stem.split('/').filter((seg, i, all) => !(seg === 'index' && i === all.length - 1));
    const route = '/' + segments.map((seg) => seg.replace(/^\[(?:\.\.\.)?(.+)\]$/, '{$1}')).join('/');
    const source = readFileSync(abs, 'utf8');
    out.push({
      route: route === '/' ? '/' : route.replace(/\/$/, ''),
      file: relative(REPO_ROOT, abs).split(sep).join('/'),
      prerender: !/export\s+const\s+prerender\s*=\s*false/.test(source),
    });
  }
  return out.sort((a, b) => a.route.localeCompare(b.route));
}

export function templateToRegExp(route: string): RegExp {
  const pattern = route
    .split('/')
    .map((seg) => (/^\{.+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern || '/'}$`);
}
