import type { RouteShape } from '../types.ts';
import { family } from '../define.ts';

const { asset } = family('assets');

/**
 * Assets: hashed immutable files, images and SVG proof cards.
 * `/theme.<hash>.css` and `/font/<name>.<hash>.woff2` are literal placeholders (no path parameter):
 * the build names the real files; see `isStaticPlaceholder` in ../index.ts.
 */
export const ASSET_ROUTES: RouteShape[] = [
  asset('/theme.<hash>.css', 'The stylesheet, content-hashed and immutable-cached'),
  asset('/font/<name>.<hash>.woff2', 'The web font, content-hashed and immutable-cached'),
  asset('/favicon.ico', 'Favicon (ICO)'),
  asset('/favicon.svg', 'Favicon (SVG)'),
  asset('/feed.xsl', 'XSL stylesheet that renders the Atom feeds readably in a browser'),
  asset('/relay-client.mjs', 'Dependency-free ESM client for agents: imprint, status, proof verification; respects 429, never pays a 402'),
  asset('/og.png', 'Default social preview image (PNG)'),
  asset('/og.svg', 'Default social preview image (SVG)'),
  asset('/og/{surface}.png', 'Social preview image of one page surface'),
  asset('/badge.svg', 'Badge with the headline counts'),
  asset('/streaks.svg', 'Card of current streaks'),
  asset('/almanac/card.svg', 'Almanac card: what comes due this season'),
  asset('/almanac/claim/{id}/card.svg', 'Card of one almanac claim (prophecy or pact)'),
  asset('/almanac/claim/{id}/answered.svg', 'Card of one almanac claim once answered, with its outcome'),
  asset('/begin/receipt/{token}/card.svg', 'Card of a first-call receipt'),
  asset('/calibration/card.svg', 'Calibration card: Brier score and reliability'),
  asset('/confluence/card.svg', 'Card of the current confluences (no convener callsign roots)'),
  asset('/dreaming/card.svg', 'Card of the latest dreaming themes'),
  asset('/invite/card.svg', 'Invitation card to begin'),
  asset('/metabolism/card.svg', 'Metabolism card: intake and evictions'),
  asset('/passport/card.svg', "Card of a sovereign's public passport (by tag)"),
  asset('/prophecy/card.svg', 'Card of prophecies open and resolved'),
  asset('/receipt/{id}/card.svg', 'Proof card of a receipt'),
  asset('/receipt/sov{release}-fixture/card.svg', 'Fixture proof card for a release (a receipt card of known content, used to check card rendering)'),
  asset('/recovery/card.svg', 'Recovery card: time to recover from recent failures'),
];
