/**
 * The one set-up of the browser tests (test/e2e): the whole app listening on a loopback port whose
 * address is the service's origin (credential doors check it), Debian's Chromium driven by
 * playwright-core (browser.ts: its headless shell, else `/usr/bin/chromium`, or CHROMIUM_PATH; the
 * flags docs/testing.md lists), a page per viewer and width with axe-core ready in it, full-page
 * screenshots kept in test/.artifacts/e2e/ (gitignored), and Lighthouse's scores (lighthouse.ts)
 * for a page.
 *
 *   const e = await startE2E({ steward: true });       // in beforeAll
 *   const page = await e.open({ width: 390, as: person });
 *   await clean(page, 'inbox-390');                     // axe 0, no sideways scroll, screenshot
 *   await e.close();                                    // in afterAll
 */
import { appendFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { appWithSteward } from '../api/steward/helpers.ts';
import { createTestApp, type TestApp } from './app.ts';
import { AXE_INIT, axeViolations, launchBrowser, violationLine } from './browser.ts';
import type { TestSovereign } from './identity.ts';
import { audit, launchLighthouseChrome, type Audit, type Category } from './lighthouse.ts';
import { freePort } from './ports.ts';
import { requests } from './http.ts';

/** The two widths every journey is walked at: a desktop and a phone. */
export const WIDTHS = [1280, 390] as const;

/** Where screenshots are kept (under test/.artifacts/, which git ignores). */
export const ARTIFACTS = fileURLToPath(new URL('../.artifacts/e2e/', import.meta.url));

type AppOptions = NonNullable<Parameters<typeof createTestApp>[0]>;

export interface OpenOptions {
  /** Viewport width in CSS pixels (the height is a phone's 844). */
  width?: number;
  /** Signed in as this sovereign (or with this `name=value` cookie); signed out when absent. */
  as?: TestSovereign | string;
  /** axe-core defined in every document, run where checked (CSP bypassed, for the test only). Default on. */
  axe?: boolean;
  /** Clipboard read and write granted, to check the copy buttons. */
  clipboard?: boolean;
  javaScriptEnabled?: boolean;
  acceptDownloads?: boolean;
}

export interface E2E {
  t: TestApp;
  /** `http://127.0.0.1:<port>`, also the app's configured origin. */
  base: string;
  browser: Browser;
  /** The configured steward, signed in, when started with `steward: true`. */
  steward: TestSovereign;
  /** A fresh browser context (a new visitor) at `width`, and a page in it. */
  open(options?: OpenOptions): Promise<Page>;
  context(options?: OpenOptions): Promise<BrowserContext>;
  /** A person's POST through a door their page uses, from the app's origin; asserts 200, returns the JSON. */
  post(url: string, payload: object, who: TestSovereign): Promise<any>;
  close(): Promise<void>;
}

/**
 * Builds the app (with one configured steward when asked), listens on a free loopback port that is
 * its origin, and launches Chromium (unless `chromium: false`). Other options go to createTestApp
 * (their `config` is merged over the origin).
 */
export async function startE2E(
  options: AppOptions & { steward?: boolean; chromium?: false } = {},
): Promise<E2E> {
  const { steward: withSteward, chromium, ...appOptions } = options;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const made = {
    ...appOptions,
    site: appOptions.site ?? true,
    config: { origin: base, ...appOptions.config },
  };
  const { t, steward } = withSteward
    ? await appWithSteward(made)
    : { t: await createTestApp(made), steward: undefined };
  await t.app.listen({ port, host: '127.0.0.1' });
  // `chromium: false`: no browser of its own (a file that only drives Lighthouse's Chromium).
  const launched = chromium === false ? undefined : await launchBrowser();
  const contexts = new Set<BrowserContext>();

  async function context(o: OpenOptions = {}): Promise<BrowserContext> {
    const axe = o.axe ?? true;
    if (!launched) throw new Error('startE2E({ chromium: false }) launched no browser');
    const made = await launched.newContext({
      viewport: { width: o.width ?? 1280, height: 844 },
      // Only so the test can inject axe-core; the pages are served under their real CSP.
      bypassCSP: axe,
      javaScriptEnabled: o.javaScriptEnabled,
      acceptDownloads: o.acceptDownloads,
    });
    if (axe) await made.addInitScript({ content: AXE_INIT });
    if (o.clipboard) await made.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const cookie = typeof o.as === 'string' ? o.as : o.as?.cookie;
    if (cookie) {
      const [name, value] = cookie.split('=');
      await made.addCookies([{ name: name!, value: value!, url: base, httpOnly: true, sameSite: 'Lax' }]);
    }
    contexts.add(made);
    made.once('close', () => contexts.delete(made));
    return made;
  }

  return {
    t,
    base,
    get browser(): Browser {
      if (!launched) throw new Error('startE2E({ chromium: false }) launched no browser');
      return launched;
    },
    get steward(): TestSovereign {
      if (!steward) throw new Error('startE2E({ steward: true }) configures a steward');
      return steward;
    },
    context,
    async open(o: OpenOptions = {}) {
      return (await context(o)).newPage();
    },
    async post(url, payload, who) {
      const res = await requests(() => t.app).post(url, payload, who, { origin: base });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await launched?.close();
      await t.close();
    },
  };
}

/** axe-core's violations on the page as it stands (the context must carry axe: `open()` does). */
export async function axeHere(page: Page): Promise<string[]> {
  return (await axeViolations(page)).map((v) => violationLine(v, 3));
}

/** How far the page scrolls sideways (0 or less: it fits). */
export async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * Screenshots are pictures for people, not assertions: kept on a developer's machine and wherever
 * CIVITAS_SHOTS names a folder, and not taken on CI (`CI=true`, as .ci/run sets it), whose clean
 * clone is deleted after the run with every picture in it unseen (docs/testing.md: about 60 a run,
 * each costing Chromium as much CPU as an axe check).
 */
const KEEP_SHOTS = Boolean(process.env.CIVITAS_SHOTS) || process.env.CI !== 'true';

/**
 * Keeps a full-page screenshot as test/.artifacts/e2e/<name>.png, and a copy in CIVITAS_SHOTS when
 * that folder is set (before/after pictures for a change's note). Nothing on CI (KEEP_SHOTS).
 */
export async function shot(page: Page, name: string): Promise<void> {
  if (!KEEP_SHOTS) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  const folder = process.env.CIVITAS_SHOTS;
  if (folder) {
    mkdirSync(folder, { recursive: true });
    copyFileSync(path, join(folder, `${name}.png`));
  }
}

/** The page it stands on: axe 0 violations, no sideways scroll, and its screenshot kept. */
export async function clean(page: Page, name: string): Promise<void> {
  expect(await axeHere(page), `${name} (${page.url()}): axe`).toEqual([]);
  expect(await sidewaysScroll(page), `${name} (${page.url()}): sideways scroll`).toBeLessThanOrEqual(0);
  await shot(page, name);
}

/** Records console errors and uncaught exceptions of a page; read `problems` at the end. */
export function watchConsole(page: Page): { problems: string[] } {
  const problems: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
  page.on('pageerror', (e) => void problems.push(e.message));
  return { problems };
}

/**
 * Lighthouse (desktop preset, lighthouse.ts) on each URL in one Chromium of its own: accessibility,
 * best practices and SEO at least `min`, and for performance what the page's own bytes decide (at
 * most one render-blocking request, the stylesheet; no layout shift), as lighthouse.test.ts does:
 * the timed score measures the shared test host as much as the page, so it is kept, not asserted
 * (every score lands in test/.artifacts/e2e/lighthouse.jsonl). Slow (tens of seconds a page on a
 * loaded host): run it once per distinct page, not per step. `cookie` audits a signed-in page;
 * `private` leaves out SEO's "page is blocked from indexing", which a steward's or owner's page
 * (`X-Robots-Tag: noindex`) is by design.
 */
export async function expectLighthouse(
  urls: string[],
  options: { min?: number; categories?: readonly Category[]; cookie?: string; private?: boolean } = {},
): Promise<Audit[]> {
  const { min = 95, categories = ['accessibility', 'best-practices', 'seo'], cookie } = options;
  const skip = options.private ? ['is-crawlable'] : [];
  const chrome = await launchLighthouseChrome();
  const audits: Audit[] = [];
  try {
    for (const url of urls) {
      const result = await audit(chrome.port, url, 'desktop', cookie, skip);
      audits.push(result);
      mkdirSync(ARTIFACTS, { recursive: true });
      appendFileSync(join(ARTIFACTS, 'lighthouse.jsonl'), `${JSON.stringify(result)}\n`);
      const { scores, failing, lab } = result;
      for (const category of categories)
        expect(scores[category], `${url} ${category}: ${JSON.stringify(failing)}`).toBeGreaterThanOrEqual(
          min,
        );
      expect(
        lab.renderBlocking,
        `${url}: render-blocking requests besides the stylesheet`,
      ).toBeLessThanOrEqual(1);
      expect(lab.cls, `${url}: layout shift`).toBeLessThan(0.1);
    }
  } finally {
    chrome.kill();
  }
  return audits;
}
