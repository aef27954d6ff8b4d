import { renderPage } from '../pages.ts';
import { defineRoute } from '../route.ts';
import { liveCensus } from './census.ts';
import { censusHost, isLiveProbe } from './live-probes.ts';
import { censusHtml } from './html.ts';

export const boundaryRoutes = [
  defineRoute('GET /api/boundaries', {
    async handler(request) {
      return liveCensus(request.server.civitas, censusHost(request.server));
    },
  }),
  defineRoute('GET /boundaries', {
    async handler(request, reply) {
      // The census's own live probe reads these headers; rendering the page would run the census again.
      if (isLiveProbe(request)) return reply.code(204).send();
      if (request.server.site) return renderPage(request, reply);
      return reply
        .type('text/html; charset=utf-8')
        .send(censusHtml(await liveCensus(request.server.civitas, censusHost(request.server))));
    },
  }),
];
