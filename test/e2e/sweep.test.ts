/**
 * Every page at phone width (390 px), signed out and signed in: nothing scrolls sideways, axe-core
 * finds no violation, a browser navigation always gets HTML (never a JSON body), no console error.
 * The one-origin app listening on loopback, real Chromium. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startE2E, type E2E } from '../helpers/e2e.ts';
import { signedInSovereign } from '../helpers/identity.ts';
import { inspect, sweepPaths, type PageFinding } from '../helpers/sweep.ts';
import { at } from '../helpers/elements.ts';

let e: E2E;
let extra: string[];
let cookie: string;

beforeAll(async () => {
  e = await startE2E();
  const { t } = e;
  const me = await signedInSovereign(t.app, { callsign: 'Sweeper' });
  cookie = me.cookie;
  const imprint = await t.app.inject({
    method: 'POST',
    url: '/sovereign/imprint',
    headers: { cookie, accept: 'application/json' },
    payload: { body: 'A long unbroken token: ' + 'f'.repeat(120), kind: 'thought' },
  });
  const { receipt_id: receipt } = imprint.json() as { receipt_id: string };
  await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    payload: { agent: 'sweep-lamplighter', body: 'A light for the sweep.', kind: 'signal' },
  });
  extra = [`/receipt/${receipt}`, '/no/such/page', `/ledger/${new Date().toISOString().slice(0, 10)}`];
}, 180_000);

afterAll(async () => e?.close());

function summarise(findings: PageFinding[]) {
  return {
    json: findings
      .filter((f) => !f.contentType.includes('text/html'))
      .map((f) => `${f.path} ${f.status} ${f.contentType}`),
    overflow: findings.filter((f) => f.overflow > 0).map((f) => `${f.path} +${f.overflow}px`),
    axe: findings.flatMap((f) => f.axe.map((v) => `${f.path}: ${v}`)),
    console: findings.flatMap((f) => f.console.map((c) => `${f.path}: ${c}`)),
  };
}

/** Pages whose words change for a signed-in person (the rest render the same for everyone; /privacy
 * stands for the prerendered pages, whose header names the viewer from a script). */
const PERSONAL = [
  '/',
  '/sovereign',
  '/imprint',
  '/settings/data',
  '/feedback/mine',
  '/oracle/mine',
  '/prophecy',
  '/standing',
  '/identity',
  '/return',
  '/initiate',
  '/orders',
  '/almanac',
  '/constitution',
  '/ceremony',
  '/passport',
  '/wallet',
  '/endow',
  '/privacy',
];

async function sweep(signedIn: boolean, half = 0) {
  const context = await e.context({ width: 390, as: signedIn ? cookie : undefined });
  const page = await context.newPage();
  const findings: PageFinding[] = [];
  const all = sweepPaths(extra);
  const paths = signedIn ? [...PERSONAL, at(extra, 0)] : all.filter((_, i) => i % 2 === half);
  for (const path of paths) findings.push(await inspect(page, e.base, path));
  await context.close();
  if (process.env.SWEEP_REPORT)
    console.log(JSON.stringify({ signedIn, pages: findings.length, ...summarise(findings) }, null, 1));
  return findings;
}

// Each pass is long (axe-core on every page), so the signed-out sweep is split in two, and the
// passes run at once: each in its own browser context, the renderers on every core.
describe.concurrent('every page at 390 px', () => {
  for (const [signedIn, half] of [
    [false, 0],
    [false, 1],
    [true, 0],
  ] as const) {
    it(`${signedIn ? 'signed in' : `signed out (${half ? 'second' : 'first'} half)`}: HTML, no sideways scroll, axe clean, no console error`, async ({
      expect,
    }) => {
      const findings = await sweep(signedIn, half);
      expect(findings.length).toBeGreaterThan(signedIn ? PERSONAL.length : 45);
      expect(summarise(findings)).toEqual({ json: [], overflow: [], axe: [], console: [] });
    }, 900_000);
  }
});
