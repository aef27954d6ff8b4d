/**
 * What a page receives after one of its forms failed: written by api/http.ts (sendFormBack), read
 * by the page it names (site/env.d.ts gives it to Astro.locals as `flash`).
 */
/** What a page receives after one of its forms failed. */
export interface Flash {
  /** The page the form lives on (path only): the flash is taken only there. */
  page: string;
  /** The path the form posted to (a page may hold several forms; each reads its own). */
  action: string;
  reason: string;
  hint: string;
  status: number;
  /** Field → message, from invalid_request issues. */
  fields: Record<string, string>;
  /** What was typed (secret-bearing fields left out). */
  values: Record<string, string>;
}
