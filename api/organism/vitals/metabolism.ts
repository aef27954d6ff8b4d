/**
 * Metabolism of the Record, from stored imprint times: intake (imprints accepted) and eviction
 * (bodies leaving the window). Imprint n evicts the body of n − 500 in its own transaction, so
 * the evictions in a period are the imprints accepted there whose sequence is above 500. Both are
 * read from the hour and day tallies the imprints' statements keep (self/tallies.ts): 54 rows of
 * each name, whatever the Record's size.
 */
import type { AppContext } from '../../context.ts';
import { RECORD_WINDOW } from '../../../shared/record/imprint.ts';
import { recordCounts } from '../../record/queries.ts';
import { DAY, HOUR } from './vitals.ts';
import { count } from '../../../shared/plural.ts';
import { CARD_FONT, CARD_INK } from '../../../shared/theme.ts';
import { ALL_IMPRINTS, slotCounts, total } from '../self/tallies.ts';

interface Slot {
  start: string;
  intake: number;
  evictions: number;
}

const NAMES = [...ALL_IMPRINTS, 'evictions'];

/** `count` aligned slots ending at `end`: the tallies the imprints' own statements keep (migrations 0062, 0074). */
async function slots(ctx: AppContext, span: 'hour' | 'day', count: number, end: number): Promise<Slot[]> {
  const size = span === 'hour' ? HOUR : DAY;
  const counts = await slotCounts(ctx.db, NAMES, span, new Date(end - count * size), count);
  return [...counts].map(([start, slot]) => ({
    start: new Date(start).toISOString(),
    intake: total(slot, ALL_IMPRINTS),
    evictions: slot.get('evictions') ?? 0,
  }));
}

const sum = (list: Slot[], key: 'intake' | 'evictions') => list.reduce((acc, slot) => acc + slot[key], 0);

/** The last 24 hours (whole hours, the current one included) and the residence at their pace. */
function lastDay(hours: Slot[]) {
  const perHour = sum(hours, 'intake') / 24;
  return {
    last_day: {
      intake: sum(hours, 'intake'),
      evictions: sum(hours, 'evictions'),
      intake_per_hour: Math.round(perHour * 100) / 100,
    },
    // At the last day's pace, how long a body stays in the window (null: nothing arrives, nothing leaves).
    residence_hours: perHour > 0 ? Math.round((RECORD_WINDOW / perHour) * 10) / 10 : null,
  };
}

const hourEnd = (now: number) => Math.floor(now / HOUR) * HOUR + HOUR;

/** What /api/organism shows of the metabolism: the last day and the residence (24 hour rows per name). */
export async function metabolismDay(ctx: AppContext) {
  return lastDay(await slots(ctx, 'hour', 24, hourEnd(ctx.clock.now().getTime())));
}

/** GET /api/metabolism, the /metabolism page and /metabolism/card.svg. */
export async function metabolismView(ctx: AppContext) {
  const now = ctx.clock.now().getTime();
  const dayEnd = Math.floor(now / DAY) * DAY + DAY;
  const [hours, days, counts] = await Promise.all([
    slots(ctx, 'hour', 24, hourEnd(now)),
    slots(ctx, 'day', 30, dayEnd),
    recordCounts(ctx.db),
  ]);
  const day = lastDay(hours);
  const lastHour = hours.at(-1);
  return {
    ok: true as const,
    schema: 'civitas.metabolism.v1' as const,
    as_of: new Date(now).toISOString(),
    window: RECORD_WINDOW,
    lifetime: {
      intake: counts.lifetime,
      evictions: Math.max(0, counts.lifetime - RECORD_WINDOW),
      // Imprints are never deleted (gap_free_sequence) and no body outlives the window
      // (record_window), so the bodiless ones are the counter less the bodies in the window.
      bodies_without_text: counts.lifetime - counts.retained,
      retained: counts.retained,
    },
    last_hour: { intake: lastHour?.intake ?? 0, evictions: lastHour?.evictions ?? 0 },
    last_day: day.last_day,
    last_30_days: { intake: sum(days, 'intake'), evictions: sum(days, 'evictions') },
    residence_hours: day.residence_hours,
    hourly: hours,
    daily: days,
    rule: `Imprint n evicts the body of imprint n − ${RECORD_WINDOW} in the same transaction; evictions in a period are the imprints accepted in it with a sequence above ${RECORD_WINDOW}. bodies_without_text also counts bodies removed by erasure.`,
  };
}

export type Metabolism = Awaited<ReturnType<typeof metabolismView>>;

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The metabolism card: a small SVG of the last 24 hours (figures only, no text from imprints). */
export function metabolismCard(m: Metabolism): string {
  const width = 600;
  const height = 315;
  const max = Math.max(1, ...m.hourly.map((slot) => Math.max(slot.intake, slot.evictions)));
  const barWidth = 20;
  // The plot fills the band between the headline (y 100) and the caption: 150 units tall, on a
  // drawn baseline, with its scale named, and a sentence in place of bars on a quiet day.
  const plot = 150;
  const bars = m.hourly
    .map((slot, i) => {
      const h = Math.round((slot.intake / max) * plot);
      const e = Math.round((slot.evictions / max) * plot);
      const x = 30 + i * 23;
      return `<rect x="${x}" y="${270 - h}" width="${barWidth}" height="${h}" fill="${CARD_INK.accent}"/><rect x="${x}" y="${270 - e}" width="${barWidth / 2}" height="${e}" fill="${CARD_INK.second}"/>`;
    })
    .join('');
  const line = (y: number, size: number, text: string) =>
    `<text x="30" y="${y}" font-family="${CARD_FONT}" font-size="${size}" fill="${CARD_INK.ink}">${escapeXml(text)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="civitas metabolism: ${count(m.last_day.intake, 'imprint', 'imprints')} in, ${count(m.last_day.evictions, 'body', 'bodies')} evicted in the last 24 hours">
<rect width="${width}" height="${height}" fill="#f7f5ef"/>
${line(44, 24, 'civitas — metabolism')}
${line(76, 16, `Last 24 h: ${m.last_day.intake} in, ${m.last_day.evictions} evicted · lifetime ${m.lifetime.intake}`)}
${line(100, 14, `Window ${m.window} · ${m.residence_hours === null ? 'no intake today' : `a body stays ~${m.residence_hours} h at this pace`}`)}
<line x1="30" y1="270.5" x2="582" y2="270.5" stroke="${CARD_INK.rule}"/>
<text x="30" y="284" font-family="${CARD_FONT}" font-size="11" fill="${CARD_INK.soft}">24 h ago</text><text x="582" y="284" text-anchor="end" font-family="${CARD_FONT}" font-size="11" fill="${CARD_INK.soft}">now</text>
<text x="582" y="${270 - plot - 6}" text-anchor="end" font-family="${CARD_FONT}" font-size="12" fill="${CARD_INK.soft}">${escapeXml(`top of scale: ${count(max, 'imprint', 'imprints')} an hour`)}</text>
${bars}
${m.hourly.every((slot) => slot.intake === 0 && slot.evictions === 0) ? `<text x="306" y="200" text-anchor="middle" font-family="${CARD_FONT}" font-size="16" fill="${CARD_INK.soft}">No imprint came in or left in the last 24 hours.</text>` : ''}
<text x="30" y="303" font-family="${CARD_FONT}" font-size="12" fill="${CARD_INK.soft}">Hourly intake (green) and evictions (orange), as of ${escapeXml(m.as_of)}</text>
</svg>`;
}
