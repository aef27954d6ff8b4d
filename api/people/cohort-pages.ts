/**
 * GET /api/cohorts a page at a time (issue 20, point 6): the cohorts, oldest first, by the month
 * (or joined period) that labels each, through the same cursor and links as every list
 * (api/paging.ts). The cohorts are computed whole (api/people/cohorts.ts: periods are joined from
 * the oldest month on, so a page cannot be computed alone); one row a month, the page bounds the
 * answer.
 */
import type { AppContext } from '../context.ts';
import { cohortsView } from './cohorts.ts';
import { decodeCursor, pageFields, pageList, type KeyOrder } from '../paging.ts';

export const COHORT_ORDER: KeyOrder = {
  path: '/api/cohorts',
  columns: [{ sql: 'month', type: 'text' }],
  order: 'asc',
};

export async function cohortsPage(ctx: AppContext, query: { limit: number; after?: string }) {
  const cursor = decodeCursor(COHORT_ORDER, query.after);
  const view = await cohortsView(ctx);
  const page = pageList(view.cohorts, COHORT_ORDER, query.limit, cursor, (cohort) => [cohort.month]);
  const links = { limit: query.limit };
  return {
    ...view,
    cohorts: page.rows,
    ...pageFields(COHORT_ORDER, page, query.limit, links),
  };
}
