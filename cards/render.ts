/**
 * Card rendering: a card description → SVG (satori) → PNG (resvg).
 * Cards are public projections; callers pass only text that is already safe to publish.
 * Both steps are cached in memory by content hash (bounded), so a hot card costs a map lookup.
 */
import { createHash } from 'node:crypto';
import satori from 'satori';
import { Resvg } from '@resvg/resvg-js';
import { cardFonts } from './font.ts';

export interface Card {
  title: string;
  subtitle?: string;
  lines?: string[];
  footer?: string;
}

export interface CardSize {
  width: number;
  height: number;
}

/** Open Graph size. */
export const OG_SIZE: CardSize = { width: 1200, height: 630 };

const PALETTE = {
  paper: '#f7f5f0',
  ink: '#1c1e22',
  soft: '#4a4f57',
  rule: '#dcd7cc',
  accent: '#0b5e52',
  dot: '#f2c14e',
};

const MAX_ENTRIES = 256;
const svgCache = new Map<string, string>();
const pngCache = new Map<string, Buffer>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

type Node = {
  type: string;
  props: Record<string, unknown> & { style?: Record<string, unknown>; children?: unknown };
};

const el = (
  type: string,
  style: Record<string, unknown>,
  children?: unknown,
  props: Record<string, unknown> = {},
): Node => ({
  type,
  props: { ...props, style: { display: 'flex', boxSizing: 'border-box', ...style }, children },
});

const MARK_SVG = (color: string, dot: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="13" fill="none" stroke="${color}" stroke-width="2.4"/><path d="M10 12.2h12M10 16.2h12M10 20.2h6.6" fill="none" stroke="${color}" stroke-width="2.4" stroke-linecap="round"/><circle cx="21" cy="20.2" r="2.1" fill="${dot}"/></svg>`;

function cardTree(card: Card, size: CardSize): Node {
  const scale = size.width / OG_SIZE.width;
  const px = (n: number) => Math.round(n * scale);
  const mark = `data:image/svg+xml;base64,${Buffer.from(MARK_SVG(PALETTE.accent, PALETTE.dot)).toString('base64')}`;
  const titleSize = card.title.length > 48 ? px(56) : px(72);

  return el(
    'div',
    {
      width: '100%',
      height: '100%',
      backgroundColor: PALETTE.paper,
      color: PALETTE.ink,
      fontFamily: 'Inter',
      flexDirection: 'row',
    },
    [
      el('div', { width: px(18), height: '100%', backgroundColor: PALETTE.accent }),
      el(
        'div',
        {
          flex: 1,
          flexDirection: 'column',
          justifyContent: 'space-between',
          padding: `${px(64)}px ${px(80)}px ${px(56)}px`,
        },
        [
          el('div', { alignItems: 'center', gap: px(16) }, [
            el('img', { width: px(56), height: px(56) }, undefined, {
              src: mark,
              width: px(56),
              height: px(56),
            }),
            el('div', { fontSize: px(36), fontWeight: 600, letterSpacing: '0.01em' }, 'civitas'),
          ]),
          el('div', { flexDirection: 'column', gap: px(24) }, [
            el(
              'div',
              { fontSize: titleSize, fontWeight: 600, lineHeight: 1.1, letterSpacing: '-0.02em' },
              card.title,
            ),
            ...(card.subtitle
              ? [el('div', { fontSize: px(34), color: PALETTE.soft, lineHeight: 1.35 }, card.subtitle)]
              : []),
            ...(card.lines?.length
              ? [
                  el(
                    'div',
                    { flexDirection: 'column', gap: px(6), marginTop: px(8) },
                    card.lines
                      .slice(0, 4)
                      .map((line) => el('div', { fontSize: px(28), color: PALETTE.ink }, line)),
                  ),
                ]
              : []),
          ]),
          el(
            'div',
            {
              borderTop: `${Math.max(1, px(2))}px solid ${PALETTE.rule}`,
              paddingTop: px(22),
              fontSize: px(26),
              color: PALETTE.soft,
            },
            card.footer ?? 'A public Record for humans and agents',
          ),
        ],
      ),
    ],
  );
}

/** Renders a card to SVG (text embedded as paths, so the SVG needs no font to display). */
export async function renderCardSvg(card: Card, size: CardSize = OG_SIZE): Promise<string> {
  const key = hashOf(
    JSON.stringify([card.title, card.subtitle, card.lines, card.footer, size.width, size.height]),
  );
  const hit = svgCache.get(key);
  if (hit) return hit;
  const svg = await satori(cardTree(card, size) as unknown as Parameters<typeof satori>[0], {
    width: size.width,
    height: size.height,
    fonts: cardFonts(),
  });
  return remember(svgCache, key, svg);
}

/** Rasterises an SVG to PNG at its own size. */
export function renderPng(svg: string): Buffer {
  const key = hashOf(svg);
  const hit = pngCache.get(key);
  if (hit) return hit;
  const png = new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
  return remember(pngCache, key, png);
}
