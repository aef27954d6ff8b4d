/**
 * Lighthouse (the npm package) against the system Chromium (browser.ts's CHROMIUM_PATH: the headless
 * shell when installed, which scored every audited page as the whole browser did), for the site's
 * quality bar.
 *
 * Settings measure the page rather than the machine: the desktop preset, whose simulation
 * (Lighthouse's default, as PageSpeed Insights runs it) multiplies the CPU time it observed by 1 and
 * lays a fast network over the requests it saw, and the metrics a page's own bytes decide
 * (render-blocking requests, total bytes, layout shift) read beside the score. Observed timings
 * (`throttlingMethod: 'provided'`) made Lighthouse wait 5.25 s after first paint and again for the
 * network and the CPU to be quiet: 11 s a page spent waiting, with no figure the tests read
 * depending on it.
 */
import { existsSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

import defaultConfig from 'lighthouse/core/config/default-config.js';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_PATH } from './browser.ts';

type LhResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Audit {
  url: string;
  scores: Record<Category, number>;
  /** audits scoring under 1 in any category (id → title), to say what to fix */
  failing: Record<string, string>;
  /** lab metrics that depend on the page's bytes, not the host's speed */
  lab: {
    cls: number;
    renderBlocking: number;
    totalBytes: number;
    fcpMs: number;
    lcpMs: number;
    tbtMs: number;
  };
}

export async function launchLighthouseChrome() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` or set CHROMIUM_PATH.`,
    );
  }
  return chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}

/** The performance audits `audit()` reads beside the score (its `lab`). */
const LAB = [
  'cumulative-layout-shift',
  'render-blocking-insight',
  'render-blocking-resources',
  'total-byte-weight',
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
];

/**
 * Performance diagnostics that weigh nothing in the score and that `audit()` does not read (the
 * back/forward-cache check navigates away and back; the treemap, screenshots and insights each
 * gather or compute their own): left out, they change no score, no `failing` entry and no `lab`
 * figure, only the time a page takes.
 */
const UNREAD = (defaultConfig.categories?.performance?.auditRefs ?? [])
  .filter((ref) => ref.weight === 0 && !LAB.includes(ref.id))
  .map((ref) => ref.id);

/**
 * Lighthouse failing to record its own trace (NO_NAVSTART and the like: "please run Lighthouse
 * again") says nothing about the page; those runs are repeated, at most twice. Any other runtime
 * error, and every score, stands as measured.
 */
const TRACE_ERRORS = new Set([
  'NO_NAVSTART',
  'NO_TRACING_STARTED',
  'NO_RESOURCE_REQUEST',
  'NO_DCL',
  'NO_FCP',
]);

async function run(
  port: number,
  url: string,
  preset: 'desktop' | 'mobile',
  cookie: string | undefined,
  skipAudits: string[],
  tries = 3,
): Promise<LhResult> {
  const config =
    preset === 'mobile'
      ? undefined
      : {
          ...desktopConfig,
          settings: {
            ...desktopConfig.settings,
            maxWaitForLoad: 30_000,
            // The report's element thumbnails: no audit's score reads it.
            disableFullPageScreenshot: true,
          },
        };
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
      skipAudits: [...UNREAD, ...skipAudits],
    },
    config,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError && TRACE_ERRORS.has(lhr.runtimeError.code) && tries > 1)
    return run(port, url, preset, cookie, skipAudits, tries - 1);
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return lhr;
}

/**
 * Audits `url` in the Chromium listening on `port`. `mobile` runs Lighthouse's default (a simulated
 * slow phone), for the record only: its performance score is the host's speed magnified.
 */
export async function audit(
  port: number,
  url: string,
  preset: 'desktop' | 'mobile' = 'desktop',
  /** a `name=value` cookie sent with every request (a signed-in page) */
  cookie?: string,
  /** audits left out of the scores (a private page is noindex by design: `is-crawlable`) */
  skipAudits: string[] = [],
): Promise<Audit> {
  const lhr = await run(port, url, preset, cookie, skipAudits);
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
  ) as Record<Category, number>;
  const failing: Record<string, string> = {};
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1)
        failing[ref.id] = `${c}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`;
    }
  }
  const num = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
  const blocking = lhr.audits['render-blocking-insight'] ?? lhr.audits['render-blocking-resources'];
  const items = (blocking?.details as { items?: unknown[] } | undefined)?.items ?? [];
  return {
    url,
    scores,
    failing,
    lab: {
      cls: num('cumulative-layout-shift'),
      renderBlocking: items.length,
      totalBytes: num('total-byte-weight'),
      fcpMs: Math.round(num('first-contentful-paint')),
      lcpMs: Math.round(num('largest-contentful-paint')),
      tbtMs: Math.round(num('total-blocking-time')),
    },
  };
}
