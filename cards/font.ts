/**
 * The card font: Inter (latin, 400 and 600) from @fontsource/inter, the same family the site uses.
 * WOFF rather than WOFF2: satori reads both, but WOFF needs no decompression step at start-up.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface CardFont {
  name: string;
  data: Buffer;
  weight: 400 | 600;
  style: 'normal';
}

let fonts: CardFont[] | undefined;

export function cardFonts(): CardFont[] {
  fonts ??= ([400, 600] as const).map((weight) => ({
    name: 'Inter',
    weight,
    style: 'normal' as const,
    data: readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`)),
  }));
  return fonts;
}
