/**
 * The censuses walk: by date, no census snapshot counts fewer imprints, humans or agents than the
 * one before it (an erasure can honestly break the humans part). Feeds censuses_never_shrink.
 */
import type { Problem, Step, Walk } from './walk.ts';
import { sql as fragment } from 'kysely';

interface Figures {
  imprints: number;
  humans: number;
  agents: number;
}

export interface CensusCursor {
  /** the last date verified ('' before the first) */
  after: string;
  /** its figures, which the next snapshot must not undercut */
  prev: Figures | null;
}

export const censusesWalk: Walk<CensusCursor> = {
  name: 'censuses',
  trials: ['censuses_never_shrink'],
  genesis: { after: '', prev: null },
  // Dates sort as text; '~' puts a cursor after the date it has verified.
  key: (c) => (c.after === '' ? '' : `${c.after}~`),
  async step(sql, _ctx, cursor, budget, until): Promise<Step<CensusCursor>> {
    const rows = await sql.kysely
      .selectFrom('census_snapshots')
      .select([
        fragment<string>`to_char(date, 'YYYY-MM-DD')`.as('date'),
        'imprints_lifetime as imprints',
        'humans',
        'agents',
      ])
      .where('date', '>', fragment<string>`${cursor.after || '0001-01-01'}::date`)
      .$if(until !== null, (q) =>
        q.where('date', '<=', fragment<string>`${until?.after || '0001-01-01'}::date`),
      )
      .orderBy('date')
      .limit(budget)
      .execute();
    const problems: Problem[] = [];
    let c = cursor;
    for (const row of rows) {
      const now = { imprints: Number(row.imprints), humans: Number(row.humans), agents: Number(row.agents) };
      const shrunk = (['imprints', 'humans', 'agents'] as const).filter((k) => c.prev && now[k] < c.prev[k]);
      if (shrunk.length)
        problems.push({
          trial: 'censuses_never_shrink',
          key: row.date,
          detail: `the census of ${row.date} shows fewer ${shrunk.join(', ')} than the one before`,
        });
      c = { after: row.date, prev: now };
    }
    return { cursor: c, checked: rows.length, problems, end: rows.length < budget };
  },
};
