/**
 * favicon.ico from the SVG mark: resvg renders each size to PNG, and the ICO container holds the PNGs
 * directly (PNG-compressed entries, understood by every browser since Windows Vista era).
 */
import { Resvg } from '@resvg/resvg-js';

export function renderIco(svg: string, sizes: number[] = [16, 32, 48]): Buffer {
  const images = sizes.map((size) => ({
    size,
    png: new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng(),
  }));
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);

  const entries: Buffer[] = [];
  let offset = 6 + 16 * images.length;
  for (const { size, png } of images) {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // palette colours
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    entries.push(entry);
  }
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)]);
}
