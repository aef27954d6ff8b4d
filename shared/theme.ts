/**
 * The reader's colour theme, shared by the API (POST /theme sets the cookie) and the pages (which
 * read it): the `civitas_theme` cookie, else the system's.
 */
export type Theme = 'light' | 'dark' | 'system';

export const THEME_COOKIE = 'civitas_theme';
