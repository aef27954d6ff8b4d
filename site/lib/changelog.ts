/**
 * The changelog, parsed from the repository's CHANGELOG.md (Keep a Changelog format:
 * `## [tag] - YYYY-MM-DD` sections, `## [Unreleased]` without a date). Pages import the file with
 * Vite's `?raw` so it is read at build time, wherever the bundle ends up.
 */
export interface Release {
  /** As written in the heading, e.g. `0.1.0` or `Unreleased`. */
  tag: string;
  /** URL segment: the tag, lower-cased (`unreleased`). */
  slug: string;
  /** ISO date, absent for Unreleased. */
  date?: string;
  /** The section's Markdown body, without its heading. */
  markdown: string;
}

export function parseChangelog(text: string): Release[] {
  const releases: Release[] = [];
  let current: Release | undefined;
  const lines: string[] = [];
  const flush = () => {
    if (current) releases.push({ ...current, markdown: lines.join('\n').trim() });
    lines.length = 0;
  };
  for (const line of text.split(/\r?\n/)) {
    const heading = /^##\s+\[([^\]]+)\](?:\s*-\s*(\d{4}-\d{2}-\d{2}))?\s*$/.exec(line);
    if (heading) {
      flush();
      const tag = heading[1]!; // group 1 is not optional
      current = { tag, slug: tag.toLowerCase(), date: heading[2], markdown: '' };
    } else if (/^\[[^\]]+\]:\s/.test(line)) {
      // link reference definitions at the end of the file
    } else if (current) {
      lines.push(line);
    }
  }
  flush();
  return releases;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(((?:https?:\/\/|\/)[^)\s]+)\)/g, '<a href="$2">$1</a>');
}

/**
 * The small Markdown subset a changelog uses: `###` headings (rendered one level below `headingLevel`),
 * `-`/`*` lists with indented continuation lines, paragraphs, inline code, bold and links.
 */
export function renderChangelogMarkdown(markdown: string, headingLevel = 3): string {
  const out: string[] = [];
  let list: string[] | undefined;
  let para: string[] | undefined;
  const close = () => {
    if (list) out.push(`<ul>${list.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`);
    if (para) out.push(`<p>${inline(para.join(' '))}</p>`);
    list = undefined;
    para = undefined;
  };
  for (const raw of markdown.split('\n')) {
    const line = raw.trimEnd();
    // Group 1 of each pattern is not optional: a match always carries it.
    const h = /^#{3,6}\s+(.*)$/.exec(line)?.[1];
    const item = /^\s*[-*]\s+(.*)$/.exec(line)?.[1];
    if (!line.trim()) {
      close();
    } else if (h !== undefined) {
      close();
      out.push(`<h${headingLevel}>${inline(h)}</h${headingLevel}>`);
    } else if (item !== undefined) {
      if (para) close();
      (list ??= []).push(item);
    } else if (list && /^\s+/.test(line)) {
      list[list.length - 1] += ` ${line.trim()}`;
    } else {
      if (list) close();
      (para ??= []).push(line.trim());
    }
  }
  close();
  return out.join('\n');
}

export function formatDate(iso: string): string {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The people's words for one release (site/content/release-notes.md), matched to a CHANGELOG.md tag. */
export function notesFor(notes: Release[], release: Release): string | undefined {
  return notes.find((n) => n.slug === release.slug)?.markdown;
}
