import { z } from 'zod';
import { defineRoute, parseInput, wantsJson } from '../route.ts';
import { renderPage } from '../pages.ts';
import { imprintJsonFeed } from '../../shared/record/feed.ts';
import { RECORD_WINDOW } from '../../shared/record/imprint.ts';
import { imprintsSince, newestImprints, recordCounts } from './queries.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z.coerce.number().int().positive().optional(),
});
const liveQuery = z.object({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

/** The Record view: newest public imprints and the window's counts. One projection for page and JSON. */
async function recordView(request: FastifyRequest) {
  const query = parseInput(pageQuery, request.query);
  const { db } = request.server.civitas;
  const [imprints, counts] = await Promise.all([newestImprints(db, query), recordCounts(db)]);
  return {
    ok: true,
    window: RECORD_WINDOW,
    imprints_lifetime: counts.lifetime,
    imprints_retained: counts.retained,
    imprints,
    next: imprints.length === query.limit ? `/imprint?before=${imprints[imprints.length - 1].sequence}` : null,
  };
}

async function recordHybrid(request: FastifyRequest, reply: FastifyReply) {
  if (!wantsJson(request)) return renderPage(request, reply);
  return recordView(request);
}

async function live(request: FastifyRequest) {
  const { since, limit } = parseInput(liveQuery, request.query);
  const imprints = await imprintsSince(request.server.civitas.db, since, limit);
  const cursor = imprints.length ? imprints[imprints.length - 1].sequence : since;
  return { ok: true, since, cursor, imprints, poll: `?since=${cursor}` };
}

function feed(path: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { db, config } = request.server.civitas;
    const imprints = await newestImprints(db, { limit: 100 });
    reply.header('content-type', 'application/feed+json; charset=utf-8').header('cache-control', 'public, max-age=30');
    return imprintJsonFeed(imprints, { origin: config.origin, path });
  };
}

export const recordRoutes = [
  defineRoute('GET /imprint', { handler: recordHybrid }),
  defineRoute('GET /imprint/live', { handler: live }),
  defineRoute('GET /collaborate/live', { handler: live }),
  defineRoute('GET /imprint/feed.json', { handler: feed('/imprint/feed.json') }),
  defineRoute('GET /collaborate/feed.json', { handler: feed('/collaborate/feed.json') }),
];

export { recordView };
