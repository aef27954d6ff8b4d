/**
 * Headless Chromium for end-to-end tests (playwright-core driving Debian's Chromium): its headless
 * shell (`apt-get install -y chromium-headless-shell`) when installed, else the whole browser
 * (`apt-get install -y chromium`); CHROMIUM_PATH overrides the choice.
 *
 * Why the shell: the same Blink and V8 without the desktop browser around them. On this suite the
 * whole browser spent about 0.8 CPU-seconds on every new context (a fresh profile's services, a
 * renderer for its own UI) and 1.2 s on every launch; the shell spends a tenth of that, and the
 * browser tests as a whole (test/e2e) half the CPU (docs/testing.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium, failing with the fix in the message if it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}

/** axe-core's browser bundle, to inject with page.addScriptTag({ path }). */
export const AXE_PATH = new URL('../../node_modules/axe-core/axe.min.js', import.meta.url).pathname;

/**
 * axe-core as an init script that defines it without running it: a new document only pre-parses
 * the function, and `window.civitasAxe()` evaluates axe-core in a page about to be checked. A
 * journey's navigations between checks (form posts, redirects) no longer each evaluate its 650 KB.
 */
export const AXE_INIT = `window.civitasAxe = function () {\n${readFileSync(AXE_PATH, 'utf8')}\n};`;

/** One axe-core violation, as the checks read it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's violations on the page as it stands, in a context that carries AXE_INIT: axe-core is
 * evaluated here, in the page about to be checked, the first time it is needed.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  return page.evaluate(async () => {
    const here = window as unknown as {
      civitasAxe(): void;
      axe?: { run(ctx: Document, o: object): Promise<{ violations: AxeViolation[] }> };
    };
    if (!here.axe) here.civitasAxe();
    const result = await here.axe!.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
}

/** A violation in one line: its rule and the first `nodes` elements it names. */
export const violationLine = (v: AxeViolation, nodes: number): string =>
  `${v.id} ${v.nodes
    .slice(0, nodes)
    .map((n) => n.target.join(' '))
    .join(', ')}`;
