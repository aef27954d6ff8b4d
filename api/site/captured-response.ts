/**
 * Astro's node handler writes to an http.ServerResponse; the one-origin server collects that page in
 * memory instead, so it leaves through Fastify's reply and the host's onSend hooks still apply.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Astro's node handler (dist/server/entry.mjs). */
export type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
  locals?: object,
) => Promise<void>;

/**
 * The slice of http.ServerResponse that Astro's node handler writes to (writeHead, write, end, the
 * finish/close events), collected in memory so the page can leave through Fastify's reply.
 */
export class CapturedResponse extends EventEmitter {
  req: IncomingMessage;
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  writableEnded = false;
  headers: Record<string, string | string[]> = {};
  done: Promise<void>;
  private chunks: Buffer[] = [];
  private finish!: () => void;

  constructor(req: IncomingMessage) {
    super();
    this.req = req;
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  setHeader(name: string, value: string | number | readonly string[]) {
    this.headers[name.toLowerCase()] = Array.isArray(value) ? [...value] : String(value);
    return this;
  }

  getHeader(name: string) {
    return this.headers[name.toLowerCase()];
  }

  removeHeader(name: string) {
    delete this.headers[name.toLowerCase()];
  }

  writeHead(status: number, headers?: Record<string, string | number | string[] | undefined>) {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {}))
      if (value !== undefined) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Uint8Array, encoding?: unknown, callback?: () => void) {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
    const cb = typeof encoding === 'function' ? encoding : callback;
    if (typeof cb === 'function') queueMicrotask(cb as () => void);
    return true;
  }

  end(chunk?: string | Uint8Array | (() => void)) {
    if (chunk && typeof chunk !== 'function') this.write(chunk);
    if (this.writableEnded) return this;
    this.headersSent = true;
    this.writableEnded = true;
    this.emit('finish');
    this.emit('close');
    this.finish();
    return this;
  }

  destroy() {
    if (!this.writableEnded) this.statusCode = this.statusCode < 400 ? 500 : this.statusCode;
    return this.end();
  }

  body(): Buffer {
    return Buffer.concat(this.chunks);
  }
}
