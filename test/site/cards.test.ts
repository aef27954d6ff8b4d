/** cards/: satori SVG, resvg PNG, the content-hash cache, and the ICO container. */
import { describe, expect, it } from 'vitest';
import { renderCardSvg, renderPng } from '../../cards/render.ts';
import { renderIco } from '../../cards/ico.ts';

describe('cards', () => {
  it('renders a card to an SVG of the asked size with its text as paths', async () => {
    const svg = await renderCardSvg(
      { title: 'Receipt rcpt_01', subtitle: 'Recorded', lines: ['step: imprint'], footer: 'civitas' },
      { width: 600, height: 315 },
    );
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('width="600"');
    expect(svg).toContain('<path');
  });

  it('returns the cached SVG for the same content and a new one for different content', async () => {
    const a = await renderCardSvg({ title: 'Same' });
    const b = await renderCardSvg({ title: 'Same' });
    const c = await renderCardSvg({ title: 'Different' });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it('rasterises to PNG at the SVG size, cached by content', async () => {
    const svg = await renderCardSvg({ title: 'PNG' });
    const png = renderPng(svg);
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
    expect(renderPng(svg)).toBe(png);
  });

  it('packs PNG renders into an ICO directory', () => {
    const ico = renderIco(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#000"/></svg>',
      [16, 32],
    );
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(2);
    expect(ico.readUInt8(6 + 16)).toBe(32);
  });
});
