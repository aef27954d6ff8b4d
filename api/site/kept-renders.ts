import type { FastifyRequest } from 'fastify';
import { strongEtag } from '../plugins/http-cache.ts';
import { RENDERS_FROM } from '../../shared/http-cache.ts';

/** A page as the site mount rendered it, before it is sent. */
export interface RenderedPage {
  /** the request the page was rendered for */
  request: FastifyRequest;
  matched: boolean;
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** its strong ETag, once a shared render has been tagged (renderEtag) */
  etag?: string;
  /** True when the page said it read the Record alone (RENDERS_FROM). */
  fromRecord: boolean;
  /** The Record's revision read before a shared render began (sharedRender). */
  revision?: number;
  /** How long the render may be kept at most, when it also read live figures beside the Record. */
  keepForMs?: number;
  /** When it was kept (performance.now()). */
  keptAt?: number;
}

/**
 * What a page said it read (RENDERS_FROM), taken out of its headers: `record` (the Record alone:
 * kept while its revision stands still) or `record; max-age=<s>` (the Record and live figures of
 * other families: kept while the revision stands still and for at most that many seconds).
 */
export function readRendersFrom(headers: Record<string, string | string[]>): {
  fromRecord: boolean;
  keepForMs?: number;
} {
  const said = String(headers[RENDERS_FROM] ?? '');
  delete headers[RENDERS_FROM];
  const maxAge = /^record; max-age=(\d+)$/.exec(said)?.[1];
  if (maxAge !== undefined) return { fromRecord: true, keepForMs: Number(maxAge) * 1000 };
  return { fromRecord: said === 'record' };
}

/** How many URLs may keep a render at once (query strings make URLs many; the oldest kept goes first). */
const KEPT_RENDERS = 64;

/** The ETag of a render, hashed on its first send and reused by everyone sharing the render. */
export function renderEtag(page: RenderedPage): string {
  return (page.etag ??= strongEtag(page.body));
}

/**
 * Anonymous renders of pages that read the Record alone, kept per URL with the Record's revision
 * read before each began (api/site/mount.ts sharedRender says why that is exact). Bounded: the
 * oldest kept URL goes first.
 */
export class KeptRenders {
  private readonly pages = new Map<string, RenderedPage>();

  /** True when some render is kept for `key` (whatever its revision). */
  has(key: string): boolean {
    return this.pages.has(key);
  }

  /** The render kept for `key` if it was made at `revision`. */
  at(key: string, revision: number | undefined): RenderedPage | undefined {
    const page = this.pages.get(key);
    if (!page || revision === undefined || page.revision !== revision) return undefined;
    const stale = page.keepForMs !== undefined && performance.now() - (page.keptAt ?? 0) > page.keepForMs;
    return stale ? undefined : page;
  }

  /** Keeps `page` for `key` if it may be kept: read from the Record alone, at a known revision, a plain 200 without a cookie. */
  offer(key: string, page: RenderedPage): void {
    if (
      !page.fromRecord ||
      page.revision === undefined ||
      !page.matched ||
      page.status !== 200 ||
      page.headers['set-cookie']
    )
      return;
    this.pages.delete(key);
    if (this.pages.size >= KEPT_RENDERS) this.pages.delete(this.pages.keys().next().value!);
    page.keptAt = performance.now();
    this.pages.set(key, page);
  }
}
