/**
 * The reader's colour theme, shared by the API (POST /theme sets the cookie) and the pages (which
 * read it): the `civitas_theme` cookie, else the system's.
 */
export type Theme = 'light' | 'dark' | 'system';

export const THEME_COOKIE = 'civitas_theme';

/**
 * The site's type and palette for SVG cards drawn by hand on the API (metabolism, recovery), so a
 * card reads like the pages it belongs to: the same font stack and the light theme's colours
 * (site/styles/theme.css `:root`).
 */
export const CARD_FONT = "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
export const CARD_INK = {
  ink: '#1c1e22',
  soft: '#4a4f57',
  rule: '#dcd7cc',
  accent: '#0b5e52',
  second: '#b3541e',
} as const;
