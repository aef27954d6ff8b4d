/**
 * The GETs the scale bench measures: every published GET shape, its path parameters filled with
 * real ids read from the database it runs against (a receipt of a sealed day, an agent, a court
 * case, a prophecy…), asked for as the shape's kind is read (JSON for the API, the page for pages).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { concreteAssetPath, PUBLISHED_ROUTES, type RouteShape } from '../../../shared/registry/index.ts';
import { APP_VERSION } from '../../../api/config.ts';
import { readAssetsManifest, REPO_ROOT } from '../../../api/site/files.ts';
import { recordOf, withRecord } from './record.ts';

export interface Target {
  /** the registry path, e.g. `/api/agent/{handle}` */
  path: string;
  /** the concrete URL path asked for */
  url: string;
  accept: string;
}

/** The reads measured at 50 connections too: the surfaces every visitor and agent hits. */
export const HOT_READS = [
  '/',
  '/api/stats',
  '/imprint',
  '/imprint/feed.json',
  '/api/agent/{handle}',
  '/api/citizens',
  '/api/presence',
  '/api/state',
  '/api/swarm',
  '/api/spines',
  '/api/transparency',
  '/receipt/{id}',
  '/verify/{id}',
];

/** The ids read from the Record ('x' where it has none of that kind). */
interface Values {
  date: string;
  id: string;
  handle: string;
  case: string;
  prophecy: string;
  answered: string;
  tag: string;
  sequence: string;
}

/** One value per path parameter, read from the Record (the middle sealed day for receipts): a URL or a data directory. */
export async function paramValues(record: string): Promise<Values> {
  return withRecord(recordOf(record), async (query) => {
    const one = async (sql: string, fallback = 'x'): Promise<string> => {
      const value = (await query(sql))[0]?.v;
      return value === undefined || value === null ? fallback : String(value);
    };
    const date = await one(
      `select to_char(date, 'YYYY-MM-DD') as v from anchors order by date offset (select count(*) / 2 from anchors) limit 1`,
    );
    return {
      date,
      id: await one(
        `select id as v from receipts where log_date = '${date}' and step = 'record.imprint' limit 1`,
      ),
      handle: await one(`select handle as v from agents where level = 'continuous' limit 1`),
      case: await one(`select id as v from governance_court_cases order by opened_at desc limit 1`),
      prophecy: await one(`select id as v from prophecies order by made_at desc limit 1`),
      answered: await one(
        `select id as v from prophecies where resolved_at is not null order by made_at desc limit 1`,
      ),
      tag: await one(`select tag as v from sovereigns order by created_at desc limit 1`),
      sequence: await one(`select max(sequence)::text as v from imprints`),
    };
  });
}

/** The concrete URL of a shape: each parameter from the values, by what it names on that path. */
export function urlOf(path: string, v: Values): string {
  const id =
    path.startsWith('/verify/court') || path.startsWith('/api/court')
      ? v.case
      : path.startsWith('/almanac/claim')
        ? path.endsWith('answered.svg')
          ? v.answered
          : v.prophecy
        : path.startsWith('/mind/claim') || path.startsWith('/branchworld')
          ? 'x'
          : v.id;
  const fill: Record<string, string> = {
    id,
    handle: v.handle,
    date: v.date,
    entity: `imprint:${v.sequence}`,
    claim: v.id,
    surface: 'record',
    tag: path.startsWith('/changelog') ? `v${APP_VERSION}` : v.tag,
    token: 'x',
    release: APP_VERSION,
  };
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(fill[name] ?? 'x'));
}

/** The built site's hashed file names, so `/theme.<hash>.css` is asked for as the file it stands for. */
function builtAssets() {
  return existsSync(join(REPO_ROOT, 'dist', 'assets.json')) ? readAssetsManifest() : undefined;
}

/** Every published GET (or those named by `only`), filled. */
export function targets(values: Values, only?: readonly string[]): Target[] {
  const assets = builtAssets();
  const shapes = PUBLISHED_ROUTES.filter((r: RouteShape) => r.methods.includes('GET'));
  const chosen = only ? shapes.filter((r) => only.includes(r.path)) : shapes;
  const missing = only?.filter((path) => !shapes.some((r) => r.path === path)) ?? [];
  if (missing.length > 0) throw new Error(`not a published GET: ${missing.join(', ')}`);
  return chosen.map((r) => ({
    path: r.path,
    url: concreteAssetPath(urlOf(r.path, values), assets),
    accept:
      r.kind === 'page' ? 'text/html' : r.kind === 'api' || r.kind === 'hybrid' ? 'application/json' : '*/*',
  }));
}
