import type { AstroGlobal } from 'astro';
import { apiGet } from './api.ts';
import type { Answer } from './answers.ts';
import { LIVE_FIGURES_SECONDS, RENDERS_FROM } from '../../shared/http-cache.ts';

type Constitution = Answer<'GET /api/constitution'>;
type Verdicts = Answer<'GET /api/verdicts'>;
type Orders = Answer<'GET /api/orders'>;
type Calibration = Answer<'GET /api/calibration'>;
type Today = Answer<'GET /today'>;
type Presence = Answer<'GET /api/presence'>;

/** The live figures of what people do, each null when its read failed (its card then says so). */
export interface HomeLive {
  constitution: Constitution | null;
  verdicts: Verdicts | null;
  orders: Orders | null;
  calibration: Calibration | null;
  today: Today | null;
  presence: Presence | null;
}

/** What the home page shows: GET /imprint's newest five (or the status of a failed read), and the live figures. */
export interface HomeRecord {
  status: number;
  record: Answer<'GET /imprint'> | null;
  live: HomeLive;
}

const ok = <T>(read: { status: number; body: T }): T | null => (read.status === 200 ? read.body : null);

/**
 * The home page's reads (for / and its alias /about), all at once: the Record's newest five, and one
 * existing projection per thing people do (open proposals, verdict counts, the three orders first in
 * line, the service's calibration, today's digest, presence). Each is a read its own page makes, bounded
 * by its family (docs/scale.md); none scans history for the home page.
 *
 * The render is kept while the Record stands still, like any page read from the Record, but since it
 * also shows figures of other families it says `max-age`: it is kept for at most LIVE_FIGURES_SECONDS,
 * the s-maxage shared caches already allow it (docs/site.md, Live pages). A render with a failed read is
 * never kept, so a passing outage is not remembered.
 */
export async function homeRecord(Astro: AstroGlobal): Promise<HomeRecord> {
  const [record, constitution, verdicts, orders, calibration, today, presence] = await Promise.all([
    apiGet<Answer<'GET /imprint'>>(Astro, '/imprint?limit=5'),
    apiGet<Constitution>(Astro, '/api/constitution'),
    apiGet<Verdicts>(Astro, '/api/verdicts?limit=1'), // its counts only
    apiGet<Orders>(Astro, '/api/orders?status=recorded&limit=3'),
    apiGet<Calibration>(Astro, '/api/calibration'),
    apiGet<Today>(Astro, '/today'),
    apiGet<Presence>(Astro, '/api/presence'),
  ]);
  const live: HomeLive = {
    constitution: ok(constitution),
    verdicts: ok(verdicts),
    orders: ok(orders),
    calibration: ok(calibration),
    today: ok(today),
    presence: ok(presence),
  };
  if (record.status !== 200) return { status: record.status, record: null, live };
  if (Object.values(live).every((part) => part !== null))
    Astro.response.headers.set(RENDERS_FROM, `record; max-age=${LIVE_FIGURES_SECONDS}`);
  return { status: record.status, record: record.body, live };
}
