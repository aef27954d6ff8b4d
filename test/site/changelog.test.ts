/**
 * /changelog in people's words: each release opens with its release notes (site/content/release-notes.md)
 * and keeps the technical changelog (migrations, files, tests) behind a "for developers" disclosure.
 * Reads the built pages (`npm run build`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const client = fileURLToPath(new URL('../../dist/client/', import.meta.url));
const page = (path: string) => readFileSync(join(client, path, 'index.html'), 'utf8');

describe('/changelog', () => {
  for (const path of ['changelog', 'changelog/unreleased', 'changelog/0.1.0']) {
    it(`${path}: release notes first, technical detail only inside the developers' disclosure`, () => {
      const html = page(path);
      const disclosure = html.indexOf('<details class="for-developers"');
      expect(disclosure).toBeGreaterThan(0);
      const before = html.slice(0, disclosure);
      expect(before).toMatch(/<strong>[^<]+<\/strong>/); // a release note's plain headline
      // migration numbers and test file names appear only behind the disclosure
      expect(before).not.toMatch(/migration 00\d\d|\.test\.ts/i);
      expect(html.slice(disclosure)).toContain('For developers: the technical changes');
    });
  }
});
