import { cacheControlForPersonalized } from '../../shared/boundaries/headers/cache.ts';
import { renderPage } from '../pages.ts';
import { defineRoute } from '../route.ts';
import { liveCensus } from './census.ts';
import { censusHost, isLiveProbe } from './live-probes.ts';
import { censusHtml } from './html.ts';

/** A live proof must not be replayed from any cache. */
const LIVE_PROOF = 'no-store';

export const boundaryRoutes = [
  defineRoute('GET /api/boundaries', {
    async handler(request, reply) {
      const census = await liveCensus(request.server.civitas, censusHost(request.server));
      reply.header('cache-control', LIVE_PROOF);
      return census;
    },
  }),
  defineRoute('GET /boundaries', {
    async handler(request, reply) {
      // shared_cache_audience: this page is listed among those no shared cache may keep.
      reply.header('cache-control', cacheControlForPersonalized()).header('vary', 'Cookie');
      // The census's own live probe reads these headers; rendering the page would run the census again.
      if (isLiveProbe(request)) return reply.code(204).send();
      if (request.server.site) return renderPage(request, reply);
      return reply
        .type('text/html; charset=utf-8')
        .send(censusHtml(await liveCensus(request.server.civitas, censusHost(request.server))));
    },
  }),
];
