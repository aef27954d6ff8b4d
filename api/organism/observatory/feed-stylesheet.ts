/**
 * GET /feed.xsl: the XSLT stylesheet that renders the Atom feeds readably in a browser. The file
 * lives in site/public (copied to dist/client by the build); it is served here so that it carries
 * its own content type (the generic static server does not know .xsl) and works before a build.
 */
import { readFile } from 'node:fs/promises';
import { Refusal } from '../../../shared/errors.ts';

const SOURCE = new URL('../../../site/public/feed.xsl', import.meta.url);
let cached: string | null = null;

export async function feedXsl(): Promise<string> {
  if (cached === null) {
    try {
      cached = await readFile(SOURCE, 'utf8');
    } catch {
      throw new Refusal('not_found', {}, 'The feed stylesheet is not installed with this deployment.');
    }
  }
  return cached;
}
