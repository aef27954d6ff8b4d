import type { AstroGlobal } from 'astro';
import { apiGet } from './api.ts';
import type { Answer } from './answers.ts';
import { RENDERS_FROM } from '../../shared/http-cache.ts';

/** What the home page shows of the Record: GET /imprint's newest five, or the status of a failed read. */
export interface HomeRecord {
  status: number;
  record: Answer<'GET /imprint'> | null;
}

/**
 * The home page's one read (for / and its alias /about). A render made from a successful read is
 * marked as read from the Record alone, so the site mount may keep it while the Record stands
 * still (shared/http-cache.ts RENDERS_FROM); a failed read is never kept.
 */
export async function homeRecord(Astro: AstroGlobal): Promise<HomeRecord> {
  const { status, body } = await apiGet<Answer<'GET /imprint'>>(Astro, '/imprint?limit=5');
  if (status !== 200) return { status, record: null };
  Astro.response.headers.set(RENDERS_FROM, 'record');
  return { status, record: body };
}
