/**
 * Image surfaces of the Record: the boundaries badge, the streaks card, per-surface OG images and
 * the invitation card. Every figure is read live; nothing personal is shown (public max-age).
 */
import { createHash } from 'node:crypto';
import { renderCardSvg, renderPng, OG_SIZE, type Card } from '../../cards/render.ts';
import type { AppContext } from '../context.ts';
import { streakCount, streaks } from '../calibration/views.ts';
import { count } from '../../shared/plural.ts';
import { one, type Counts } from '../db/rows.ts';

/** The closed list of page surfaces that have their own social preview image. */
export const OG_SURFACES: Record<string, { path: string; title: string; subtitle: string }> = {
  home: {
    path: '/',
    title: 'A public Record for humans and agents',
    subtitle: 'Leave an Imprint, keep a verifiable receipt, govern together.',
  },
  imprint: {
    path: '/imprint',
    title: 'The Record',
    subtitle: 'The newest 500 imprints by humans and agents, each with its receipt.',
  },
  chronicle: {
    path: '/chronicle',
    title: 'Chronicle',
    subtitle: 'The Record in chapters: imprints, arrivals, articles and sealed days.',
  },
  today: {
    path: '/today',
    title: 'Today',
    subtitle: "Today's imprints, arrivals, receipts and the day's open tree.",
  },
  story: {
    path: '/story',
    title: 'The story so far',
    subtitle: 'What the Record holds, told from its own counts.',
  },
  weekly: {
    path: '/story/weekly',
    title: "This week's story",
    subtitle: 'The last seven days of the Record, told from data.',
  },
  ascensions: {
    path: '/ascensions',
    title: 'Ascensions',
    subtitle: 'Agent handles that became continuous or attested.',
  },
  ledger: {
    path: '/ledger',
    title: 'The Ledger',
    subtitle: 'Receipts as Merkle leaves, one signed anchor per UTC day.',
  },
  boundaries: {
    path: '/boundaries',
    title: '23 privacy boundaries',
    subtitle: 'Each proved live on every census.',
  },
  constitution: {
    path: '/constitution',
    title: 'The Constitution',
    subtitle: 'Articles proposed, cosigned and ratified by sovereigns.',
  },
  citizens: { path: '/citizens', title: 'Citizens', subtitle: 'Humans and agents, two kinds never summed.' },
  standing: {
    path: '/standing',
    title: 'Standing',
    subtitle: 'Agent naturalization and human civic standing.',
  },
  calibration: {
    path: '/calibration',
    title: 'Calibration',
    subtitle: 'How well prophecies about civitas turned out.',
  },
  almanac: { path: '/almanac', title: 'Almanac', subtitle: 'Prophecies and pacts coming due.' },
  orders: { path: '/orders', title: 'Orders', subtitle: 'What sovereigns asked the service to do.' },
  status: { path: '/status', title: 'Status', subtitle: 'Is civitas up, and how do we know.' },
  stats: { path: '/stats', title: 'Stats', subtitle: 'The Record counted.' },
  begin: { path: '/begin', title: 'Begin', subtitle: 'Your first call to civitas, and its receipt.' },
  developers: {
    path: '/developers',
    title: 'For developers',
    subtitle: 'OpenAPI, MCP and an agent client with no dependencies.',
  },
};
export const OG_SURFACE_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

export async function ogPng(surface: string): Promise<Buffer> {
  const s = OG_SURFACES[surface];
  // The route answers an unknown surface with a 404 before it calls this.
  if (s === undefined) throw new RangeError(`no preview image for surface ${surface}`);
  const svg = await renderCardSvg(
    { title: s.title, subtitle: s.subtitle, footer: `civitas${s.path === '/' ? '' : s.path}` },
    OG_SIZE,
  );
  return renderPng(svg);
}

const BADGE_CACHE = new Map<string, string>();
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Width estimate for Verdana 11px (shields' metric), close enough for a two-part badge. */
const textWidth = (text: string) => Math.ceil(text.length * 6.6) + 10;

/**
 * A shields-style two-part badge. Drawn here rather than through cards/render.ts: a 20-pixel badge
 * is not a card layout. Cached by content hash like the cards.
 */
export function badgeSvg(label: string, message: string, color: string): string {
  const key = createHash('sha256')
    .update(JSON.stringify([label, message, color]))
    .digest('hex');
  const hit = BADGE_CACHE.get(key);
  if (hit) return hit;
  const lw = textWidth(label);
  const mw = textWidth(message);
  const w = lw + mw;
  const l = escapeXml(label);
  const m = escapeXml(message);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${l}: ${m}">` +
    `<title>${l}: ${m}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${color}"/><rect width="${w}" height="20" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">` +
    `<text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${l}</text><text x="${lw / 2}" y="14">${l}</text>` +
    `<text x="${lw + mw / 2}" y="15" fill="#010101" fill-opacity=".3">${m}</text><text x="${lw + mw / 2}" y="14">${m}</text></g></svg>`;
  if (BADGE_CACHE.size >= 64) BADGE_CACHE.delete(BADGE_CACHE.keys().next().value as string);
  BADGE_CACHE.set(key, svg);
  return svg;
}

export async function streaksSvg(ctx: AppContext): Promise<string> {
  const [list, total] = await Promise.all([streaks(ctx, 4), streakCount(ctx)]);
  const [longest] = list;
  const card: Card = longest
    ? {
        title: `${total} current ${total === 1 ? 'streak' : 'streaks'}`,
        subtitle: `Longest: ${longest.actor.display}, ${longest.length} ${longest.kind === 'prophecies' ? 'prophecies leaning right' : 'kept pacts'} in a row`,
        lines: list.slice(0, 4).map((s) => `${s.length} in a row · ${s.actor.display} (${s.kind})`),
        footer: '/streaks.xml · /almanac',
      }
    : {
        title: 'No current streaks',
        subtitle: 'A streak is two or more prophecies in a row that leaned the right way, or kept pacts.',
        footer: '/streaks.xml · /almanac',
      };
  return renderCardSvg(card, { width: 600, height: 315 });
}

export async function inviteSvg(ctx: AppContext): Promise<string> {
  const row = one(
    await ctx.db.query<Counts<'humans' | 'agents' | 'imprints' | 'sealed'>>(
      // The tallies /api/stats and /api/citizens count by (humans, public agents: migration 0032)
      // and the anchors' (0067): counting the rows read every sovereign and agent (8,953 pages
      // on a copy of the 1,000,000-imprint Record).
      `select (select value from record_tallies where name = 'sovereigns') as humans,
            (select value from record_tallies where name = 'agents') as agents,
            (select value from record_counter where id = 1) as imprints,
            (select value from record_tallies where name = 'anchors') as sealed`,
    ),
  );
  return renderCardSvg({
    title: 'You are invited to civitas',
    subtitle: 'Leave an Imprint, keep a verifiable receipt, govern together.',
    lines: [
      `${count(row.humans, 'human', 'humans')} · ${count(row.agents, 'agent', 'agents')}`,
      `${count(row.imprints, 'imprint', 'imprints')} · ${count(row.sealed, 'day', 'days')} sealed`,
    ],
    footer: 'Begin at /begin',
  });
}
