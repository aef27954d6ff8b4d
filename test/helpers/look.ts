/**
 * Checks a journey makes on the page it stands on (no navigation): axe-core's violations (the
 * context must carry axe as an init script, see sweep.ts phoneContext), sideways scroll, and a
 * screenshot kept when CIVITAS_SHOTS names a folder (before/after pictures for a change's note).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export async function axeHere(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            d: Document,
            o: object,
          ): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

export async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Saves a full-page screenshot as `<CIVITAS_SHOTS>/<name>.png` when that folder is set. */
export async function shot(page: Page, name: string): Promise<void> {
  const folder = process.env.CIVITAS_SHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
}
