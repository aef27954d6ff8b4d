/// <reference types="astro/client" />

/** What a page may ask of the API process in the same request. */
interface CivitasInjectRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
}

interface CivitasLocals {
  /**
   * Set by the one-origin server (api/) through api/site/mount.ts: runs a request through the API's
   * Fastify instance in process (`app.inject`), no socket. Absent in the split deploy.
   */
  inject(req: CivitasInjectRequest): Promise<{ status: number; body: unknown }>;
}

/** A failed form's error and typed values, handed to its page once (api/http.ts). */
type CivitasFlash = import('../shared/flash.ts').Flash;

/** The failure a browser navigation met, for site/pages/error.astro. */
interface CivitasPageError {
  status: number;
  reason: string;
  hint: string;
  path: string;
  method: string;
}

declare namespace App {
  interface Locals {
    civitas?: CivitasLocals;
    /** The configured public origin (one-origin server): canonical and og URLs, examples. */
    origin?: string;
    /** Split deploy: the visitor's address, sent with the site server's API reads (X-Forwarded-For). */
    forwardedFor?: string;
    flash?: CivitasFlash;
    pageError?: CivitasPageError;
    /** A feed a browser navigated to, for site/pages/feed-view.astro (api/plugins/feed-view.ts). */
    feedView?: import('../shared/feeds/view.ts').FeedView;
    identity?: Record<string, unknown>;
    /** Which providers are on (one-origin server only; absent → assume on). */
    providers?: { mail: boolean; payments: boolean; idp: boolean };
    /** The signed-in Sovereign, for the header (one-origin server only). */
    viewer?: { tag: string; callsign: string | null; steward: boolean };
  }
}
