/**
 * Commit subjects stay at most 72 characters (issue 23; docs/testing.md), so
 * `git log --oneline` reads as a list of changes. The rule holds from RULE_SINCE on; the history
 * before it is left as it was. Without a git checkout (a source archive) there is nothing to check.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** The last commit before the rule: every commit after it keeps its subject to 72 characters. */
const RULE_SINCE = 'ef4c5b1bdfd665ce43b26229092dc1a88135727a';
const MAX_SUBJECT = 72;

function git(...args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

describe('commit subjects', () => {
  const known = git('cat-file', '-e', `${RULE_SINCE}^{commit}`) !== null;

  it.skipIf(!known)(`every commit since the rule has a subject of at most ${MAX_SUBJECT} characters`, () => {
    const log = git('log', '--format=%h %s', `${RULE_SINCE}..HEAD`) ?? '';
    const long = log
      .split('\n')
      .filter(Boolean)
      .filter((line) => line.slice(line.indexOf(' ') + 1).length > MAX_SUBJECT);
    expect(long).toEqual([]);
  });
});
