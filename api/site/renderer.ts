/**
 * Rendering a page with Astro's SSR handler (dist/server/entry.mjs) for the site mount (./mount.ts):
 * one render for one request, and an anonymous render shared by the requests that arrive together
 * and, for a page that read the Record alone, kept while the Record's revision stands still.
 */
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { coalescer } from '../../shared/coalesce.ts';
import { CapturedResponse, type AstroHandler } from './captured-response.ts';
import { KeptRenders, readRendersFrom, type RenderedPage } from './kept-renders.ts';

export type SiteLocals = App.Locals;
export type LocalsOption = SiteLocals | ((request: FastifyRequest) => SiteLocals | Promise<SiteLocals>);

export interface RendererOptions {
  /** Per-request Astro locals (see injectLocals), or a fixed object. */
  locals?: LocalsOption;
  /** Requests of one event-loop turn share one render begun after them (MountSiteOptions.gatherRenders). */
  gatherRenders?: boolean;
  /** The Record's current revision, read after the request arrived (MountSiteOptions.recordRevision). */
  recordRevision?: () => Promise<number>;
}

export interface PageRenderer {
  /** The locals the options give this request. */
  resolveLocals(request: FastifyRequest): Promise<SiteLocals | undefined>;
  /** Renders the page of `raw` (default: the request itself) for this request, with these locals. */
  render(request: FastifyRequest, locals?: SiteLocals, raw?: IncomingMessage): Promise<RenderedPage>;
  /** An anonymous render of the request's URL, shared and kept as the header of this file says. */
  sharedRender(request: FastifyRequest): Promise<RenderedPage>;
}

export function pageRenderer(handler: AstroHandler, options: RendererOptions): PageRenderer {
  const resolveLocals = async (request: FastifyRequest): Promise<SiteLocals | undefined> => {
    const { locals } = options;
    return typeof locals === 'function' ? locals(request) : locals;
  };

  const render = async (
    request: FastifyRequest,
    locals?: SiteLocals,
    raw: IncomingMessage = request.raw,
  ): Promise<RenderedPage> => {
    const pageLocals = locals ?? (await resolveLocals(request)) ?? {};
    const res = new CapturedResponse(raw);
    let matched = true;
    try {
      const noPage = () => {
        matched = false;
        res.end();
      };
      await handler(raw, res as unknown as ServerResponse, noPage, pageLocals);
    } catch {
      res.statusCode = 500;
      res.end();
    }
    await res.done;
    const headers = { ...res.headers };
    // A page that read the Record alone says so (RENDERS_FROM); the header itself never leaves.
    const { fromRecord, keepForMs } = readRendersFrom(headers);
    return { request, matched, status: res.statusCode, headers, body: res.body(), fromRecord, keepForMs };
  };

  const renders = coalescer<string, RenderedPage>();
  const kept = new KeptRenders();

  /**
   * An anonymous render, shared by the requests that arrive together (shared/coalesce.ts) and, for
   * a page that read the Record alone, kept while the Record's revision stands still. Exact: a kept
   * render is sent only when a revision read begun after this request arrived finds the revision it
   * was rendered at, so a render made now would read the same rows and give the same bytes. The
   * revision is one row every process reads and every statement writing imprints moves (migration
   * 0022), so a write in any process is seen by the next request in all of them; a render stores
   * the revision its run read before rendering, so a write during the render only makes it go sooner.
   */
  const sharedRender = async (request: FastifyRequest): Promise<RenderedPage> => {
    const key = `${request.method} ${request.headers.host ?? ''} ${request.url}`;
    const { recordRevision } = options;
    // Only a URL with a kept render pays a revision read per request; others pay one per render.
    if (recordRevision && kept.has(key)) {
      const held = kept.at(key, await recordRevision());
      if (held) return held;
    }
    // The run begins after every request that shares it arrived; its revision is read before its render.
    const page = await renders(
      key,
      async () => {
        const revision = recordRevision ? await recordRevision() : undefined;
        return { ...(await render(request)), revision };
      },
      options.gatherRenders,
    );
    kept.offer(key, page);
    return page;
  };

  return { resolveLocals, render, sharedRender };
}
