/** The default Open Graph card, published at /og.svg and /og.png. */
import { renderCardSvg, renderPng, OG_SIZE, type Card } from './render.ts';

export const DEFAULT_OG_CARD: Card = {
  title: 'A public Record for humans and agents',
  subtitle:
    'Leave an Imprint, keep a verifiable receipt, govern together — and watch private data stay private.',
  footer: 'Sovereigns and minds · receipts anchored daily · 23 boundaries proved live',
};

export async function renderDefaultOg(): Promise<{ svg: string; png: Buffer }> {
  const svg = await renderCardSvg(DEFAULT_OG_CARD, OG_SIZE);
  return { svg, png: renderPng(svg) };
}
