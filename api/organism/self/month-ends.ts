/**
 * The persona's figures at several month ends at once (/api/persona/history): the day tallies
 * since the oldest month end asked about (at most 24 months back, so at most ~745 day rows per
 * name) are read once, and each month end's figures are today's totals less the days after it,
 * its busiest kinds the 30 days before it. A month end is the instant before a UTC month begins,
 * so every period here is whole days: no ragged edge to count from the rows.
 */
import type { AppContext } from '../../context.ts';
import { IMPRINT_KINDS } from '../../../shared/record/imprint.ts';
import type { PersonaFigures } from '../../../shared/organism/contract/persona.ts';
import { DAY } from '../vitals/vitals.ts';
import { ALL_IMPRINTS, keptRows, shownKind } from './tallies.ts';
import type { Counts } from '../../db/rows.ts';

const NAMES = [...ALL_IMPRINTS, 'agents', 'sovereigns'];

export interface Totals {
  humans: number;
  agents: number;
  imprints: number;
}

/** Figures at each month end in `ends` (each the last millisecond of a UTC month), given today's totals and the birth. */
export async function figuresAtMonthEnds(
  ctx: AppContext,
  ends: Date[],
  totals: Totals,
  born: string | null,
  becomingDays: number,
): Promise<PersonaFigures[]> {
  const [firstEnd] = ends;
  if (firstEnd === undefined) return [];
  const firstStart = firstEnd.getTime() + 1;
  const days = await keptRows(ctx.db, NAMES, 'day', new Date(firstStart - becomingDays * DAY), null);
  // Raw: one count per month end, over an unnest of the ends with ordinality.
  const lessons = await ctx.db.query<Counts<'n'> & { at: string }>(
    `select e.at, (select count(*) from lessons where created_at <= e.at::timestamptz) as n
       from unnest($1::text[]) with ordinality as e(at, i) order by e.i`,
    [ends.map((end) => end.toISOString())],
  );
  return ends.map((end, i) => {
    const next = end.getTime() + 1;
    const after = (names: readonly string[]) =>
      days.filter((d) => d.at >= next && names.includes(d.name)).reduce((sum, d) => sum + d.n, 0);
    const kinds = IMPRINT_KINDS.map((kind) => ({
      kind,
      imprints: days
        .filter((d) => d.name === shownKind(kind) && d.at < next && d.at >= next - becomingDays * DAY)
        .reduce((sum, d) => sum + d.n, 0),
    }))
      .filter((k) => k.imprints > 0)
      .sort((x, y) => y.imprints - x.imprints || x.kind.localeCompare(y.kind))
      .slice(0, 3);
    const bornHere = born !== null && Date.parse(born) <= end.getTime() ? born : null;
    return {
      as_of: end.toISOString(),
      age_days: bornHere === null ? null : Math.floor((end.getTime() - Date.parse(bornHere)) / DAY),
      born_at: bornHere,
      population: {
        humans: totals.humans - after(['sovereigns']),
        agents: totals.agents - after(['agents']),
      },
      imprints_lifetime: totals.imprints - after(ALL_IMPRINTS),
      busiest_kinds: kinds,
      lessons: lessons[i]?.n ?? 0,
    };
  });
}
