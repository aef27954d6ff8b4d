/** The reader's colour theme on the page side: the `civitas_theme` cookie (set by POST /theme), else the system's. */
import { THEME_COOKIE, type Theme } from '../../shared/theme.ts';

export { THEME_COOKIE, type Theme };

/** Reads the theme from a raw Cookie header; anything but light|dark|system means system. */
export function themeFromCookieHeader(cookieHeader: string | undefined | null): Theme {
  if (!cookieHeader) return 'system';
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== THEME_COOKIE) continue;
    const value = decodeURIComponent(part.slice(eq + 1).trim());
    if (value === 'light' || value === 'dark' || value === 'system') return value;
  }
  return 'system';
}

/** The exact opening-tag fragment Base.astro writes for prerendered pages (theme unknown at build time). */
export const PRERENDERED_THEME_ATTR = 'data-theme="system"';

/**
 * Sets the theme on a prerendered page by rewriting its one `data-theme="system"` attribute and the
 * matching `aria-pressed` states of the footer's theme buttons.
 */
export function applyTheme(html: string, theme: Theme): string {
  if (theme === 'system') return html;
  return html
    .replace(PRERENDERED_THEME_ATTR, `data-theme="${theme}"`)
    .replace('value="system" aria-pressed="true"', 'value="system" aria-pressed="false"')
    .replace(`value="${theme}" aria-pressed="false"`, `value="${theme}" aria-pressed="true"`);
}
