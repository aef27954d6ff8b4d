/// <reference types="astro/client" />

/** What a page may ask of the API process in the same request. */
interface CivitasInjectRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
}

interface CivitasLocals {
  /**
   * Set by the one-origin server (api/) through site/mount.ts: runs a request through the API's
   * Fastify instance in process (`app.inject`), no socket. Absent in the split deploy.
   */
  inject(req: CivitasInjectRequest): Promise<{ status: number; body: unknown }>;
}

declare namespace App {
  interface Locals {
    civitas?: CivitasLocals;
  }
}
