/** api/site/mount.ts against a bare Fastify app: caching, theme cookie, SSR with injected locals, routes list. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountSite, type SiteMount } from '../../../api/site/mount.ts';
import { listAstroPages } from '../../../api/site/page-index.ts';

let app: FastifyInstance;
let site: SiteMount;
const injected: string[] = [];

beforeAll(async () => {
  app = Fastify();
  site = await mountSite(app, {
    locals: () => ({
      civitas: {
        async inject(req) {
          injected.push(`${req.method} ${req.url} cookie=${req.headers?.cookie ?? ''}`);
          return { status: 200, body: { ok: true, status: 'ready', version: '9.9.9-test' } };
        },
      },
    }),
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-host-hook', 'ran');
    return payload;
  });
  app.get('/ssr-only/*', (request, reply) => site.renderSsr(request, reply));
  app.get('/*', async (request, reply) => {
    if (await site.sendPrerendered(reply, request.url)) return reply;
    if (site.hasPage(request.url)) return site.renderSsr(request, reply);
    return reply.code(501).send({ ok: false, reason: 'not_implemented' });
  });
  await app.ready();
});

afterAll(() => app.close());

describe('mountSite', () => {
  it('serves hashed assets immutable, other assets briefly, with ETags and 304s', async () => {
    const theme = await app.inject({ url: site.assets.theme });
    expect(theme.statusCode).toBe(200);
    expect(theme.headers['content-type']).toMatch(/^text\/css/);
    expect(theme.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await app.inject({
      url: site.assets.theme,
      headers: { 'if-none-match': String(theme.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const font = await app.inject({ url: site.assets.font });
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const og = await app.inject({ url: '/og.png' });
    expect(og.headers['content-type']).toBe('image/png');
    expect(og.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('sends prerendered pages, rewriting the theme from the civitas_theme cookie', async () => {
    const plain = await app.inject({ url: '/lexicon' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=300');
    expect(plain.headers.vary).toBe('Cookie');
    expect(plain.body).toContain('data-theme="system"');

    const dark = await app.inject({ url: '/lexicon/', headers: { cookie: 'a=1; civitas_theme=dark' } });
    expect(dark.body).toContain('data-theme="dark"');
    expect(dark.body).toContain('value="dark" aria-pressed="true"');
    expect(dark.body).toContain('value="system" aria-pressed="false"');
    expect(dark.headers['cache-control']).toBe('private, no-store');

    const bogus = await app.inject({ url: '/lexicon', headers: { cookie: 'civitas_theme=<script>' } });
    expect(bogus.body).toContain('data-theme="system"');
    // Any other cookie leaves the built file as it is, so it stays public (its entry's class).
    const session = await app.inject({ url: '/lexicon', headers: { cookie: 'civitas_session=x' } });
    expect(session.headers['cache-control']).toBe('public, max-age=300');
  });

  it('refuses paths that try to leave dist/client', async () => {
    const res = await app.inject({ url: '/..%2f..%2fpackage.json' });
    expect(res.statusCode).toBe(501);
  });

  it('renders live pages through Astro with per-request locals, and the host hooks still run', async () => {
    const res = await app.inject({ url: '/status', headers: { cookie: 'civitas_theme=light' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-host-hook']).toBe('ran');
    // Its entry's class, set by the mount itself: the split deploy's site server has no router.
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('9.9.9-test');
    expect(res.body).toContain('data-theme="light"');
    expect(injected.at(-1)).toBe('GET /health cookie=civitas_theme=light');
  });

  it('answers 404 in the error shape when Astro has no page for an SSR path', async () => {
    const reply = await app.inject({ url: '/ssr-only/nowhere' });
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toMatchObject({ ok: false, reason: 'not_found' });
    expect(site.hasPage('/nowhere')).toBe(false);
    expect(site.hasPage('/status')).toBe(true);
  });

  it('lists page route templates in the registry notation', () => {
    const pages = listAstroPages();
    expect(pages).toEqual(
      expect.arrayContaining([
        '/changelog',
        '/changelog/{tag}',
        '/developers',
        '/legal',
        '/legal/proprietary',
        '/lexicon',
        '/status',
      ]),
    );
  });
});
