/**
 * The roster's cursor (GET /api/citizens): where each of its two lists (sovereigns by (tag, id),
 * agents by handle) resumes on the page it names. The lists page side by side, so going back
 * needs, for a list that ended earlier, the page it ended on and the key that page began at: a
 * finished list carries both (`!M:S`), and a page before it reads the rows before the first one
 * shown (`<K`). The text is base64url of `page~humans~agents` (`p` before the page number for a
 * cursor of a previous link); one this code did not write is a 400 naming `after`.
 */
import { Refusal } from '../../shared/errors.ts';

/** Where one list reads on the cursor's page. */
export type Resume =
  | { from: 'start' }
  | { from: 'after'; key: string }
  | { from: 'before'; key: string }
  /** the list ended: its last page is `page`, beginning at `key` ('' for the list's start) */
  | { from: 'done'; page: number; key: string }
  /** the list ended, where unknown (cursors written before previous links) */
  | { from: 'gone' };

export interface RosterCursor {
  page: number;
  back: boolean;
  humans: Resume;
  agents: Resume;
}

const HUMAN_KEY = /^[0-9a-f]{4}\.[0-9a-f-]{36}$/;

function resumeText(r: Resume): string {
  if (r.from === 'start') return '';
  if (r.from === 'after') return r.key;
  if (r.from === 'before') return `<${r.key}`;
  if (r.from === 'done') return `!${r.page}:${r.key}`;
  return '!';
}

function resumeOf(text: string, valid: (key: string) => boolean): Resume | null {
  if (text === '') return { from: 'start' };
  if (text === '!') return { from: 'gone' };
  const done = /^!(\d{1,6}):(.*)$/s.exec(text);
  if (done) {
    const [, pageText, key = ''] = done;
    const page = Number(pageText);
    return page >= 1 && (key === '' || valid(key)) ? { from: 'done', page, key } : null;
  }
  if (text.startsWith('<')) return valid(text.slice(1)) ? { from: 'before', key: text.slice(1) } : null;
  return valid(text) ? { from: 'after', key: text } : null;
}

export function encodeRosterCursor(cursor: RosterCursor): string {
  const page = `${cursor.back ? 'p' : ''}${cursor.page}`;
  return Buffer.from(`${page}~${resumeText(cursor.humans)}~${resumeText(cursor.agents)}`).toString(
    'base64url',
  );
}

/** A cursor this roster wrote, or a 400 naming `after`. */
export function decodeRosterCursor(after: string): RosterCursor {
  const parts = Buffer.from(after, 'base64url').toString('utf8').split('~');
  const [head = '', humansText = '', agentsText = ''] = parts;
  const back = head.startsWith('p');
  const page = Number(back ? head.slice(1) : head);
  const humans = parts.length === 3 ? resumeOf(humansText, (k) => HUMAN_KEY.test(k)) : null;
  const agents = parts.length === 3 ? resumeOf(agentsText, (k) => k.length > 0 && k.length <= 200) : null;
  if (!humans || !agents || !Number.isInteger(page) || page < (back ? 1 : 2)) {
    throw new Refusal('invalid_request', {
      issues: [{ path: 'after', message: 'after is the cursor of a next or previous link of /api/citizens' }],
    });
  }
  return { page, back, humans, agents };
}

/** What one list showed on a page: its first and last keys, and whether rows follow the last. */
export interface Shown {
  first: string | null;
  last: string | null;
  more: boolean;
}

/** Where the list resumes on the next page. */
export function nextResume(page: number, read: Resume, shown: Shown): Resume {
  if (read.from === 'done' && page > read.page) return read;
  if (read.from === 'gone') return read;
  if (shown.last !== null && shown.more) return { from: 'after', key: shown.last };
  if (read.from === 'done') return read;
  // Its last page is this one: it reads again from its first key (`>=`), or from the start.
  return { from: 'done', page, key: shown.first ?? '' };
}

/** Where the list reads on the page before (only asked for when this page is not the first). */
export function previousResume(page: number, read: Resume, shown: Shown): Resume {
  if (read.from === 'done' && page > read.page) return read;
  if (shown.first !== null) return { from: 'before', key: shown.first };
  return { from: 'gone' };
}
