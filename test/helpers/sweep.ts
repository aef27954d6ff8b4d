/**
 * What the browser suite checks on every page a person can open: no sideways scroll at phone width,
 * axe-core clean, an HTML answer (never a JSON body shown to a navigation), no console error.
 */
import type { Page } from 'playwright-core';
import { axeViolations, violationLine } from './browser.ts';
import { listAstroPageDetails } from '../../api/site/page-index.ts';

/** Every page route without a path parameter (the internal error page aside), plus the given extras. */
export function sweepPaths(extra: string[] = []): string[] {
  const fixed = listAstroPageDetails()
    .map((p) => p.route)
    .filter((r) => !r.includes('{') && r !== '/error' && r !== '/feed-view');
  return [...new Set([...fixed, ...extra])];
}

export interface PageFinding {
  path: string;
  status: number;
  contentType: string;
  overflow: number;
  axe: string[];
  console: string[];
}

/** Opens `path` and measures it, in a context with axe-core (test/helpers/e2e.ts `context()`). */
export async function inspect(page: Page, base: string, path: string): Promise<PageFinding> {
  const problems: string[] = [];
  const onConsole = (m: { type(): string; text(): string }) =>
    void (m.type() === 'error' && problems.push(m.text()));
  const onError = (e: Error) => void problems.push(e.message);
  page.on('console', onConsole);
  page.on('pageerror', onError);
  const response = await page.goto(`${base}${path}`, { waitUntil: 'load' });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  const axe = (await axeViolations(page)).map((v) => violationLine(v, 2));
  page.off('console', onConsole);
  page.off('pageerror', onError);
  return {
    path,
    status: response?.status() ?? 0,
    contentType: response?.headers()['content-type'] ?? '',
    overflow,
    axe,
    console: problems.filter((p) => !/status of 4\d\d|status of 5\d\d/.test(p)),
  };
}
