import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineRoute, type RouteRequest } from '../route.ts';
import { Refusal } from '../../shared/errors.ts';
import { imprintJsonFeed } from '../../shared/record/feed.ts';
import { RECORD_WINDOW } from '../../shared/record/imprint.ts';
import type { RecordQuery } from '../../shared/record/contract.ts';
import { projectQuarantine } from '../../shared/boundaries/projectors/actors.ts';
import { speakers } from './speakers.ts';
import { clearMyFeedback, feedbackOverview, myFeedback, reportFeedback, type Reporter } from './feedback.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import {
  contributionRecords,
  heldSummary,
  imprintsSince,
  latestEvictions,
  newestImprints,
  recordCounts,
  heldRecords,
} from './queries.ts';
import { humanImprint, reportImprint } from './service.ts';
import { statsView } from './stats.ts';
import { searchView } from './search.ts';
import { sessionOf } from '../plugins/session.ts';
import { constant } from '../db/kysely.ts';

/** The Record view: newest public imprints, the window's counts and held counts. One projection for page, JSON and MCP. */
export async function recordView(ctx: { db: import('../db/database.ts').Database }, query: RecordQuery) {
  const [imprints, counts, held] = await Promise.all([
    newestImprints(ctx.db, query),
    recordCounts(ctx.db),
    heldSummary(ctx.db),
  ]);
  const last = imprints.at(-1);
  return {
    ok: true as const,
    window: RECORD_WINDOW,
    imprints_lifetime: counts.lifetime,
    imprints_retained: counts.retained,
    imprints_unattested: counts.unattested,
    held,
    imprints,
    next:
      last && imprints.length === query.limit
        ? `/imprint?before=${last.sequence}${query.kind ? `&kind=${query.kind}` : ''}`
        : null,
  };
}

function viewerOf(sovereign: FastifyRequest['sovereign']) {
  return sovereign
    ? {
        signed_in: true as const,
        tag: sovereign.tag,
        can_imprint: sovereign.scopes.includes('sovereign:write'),
      }
    : { signed_in: false as const };
}

/** GET /imprint as JSON and MCP civitas_record (read anonymously): the Record view and who reads it. */
export async function recordJson(
  ctx: { db: import('../db/database.ts').Database },
  query: RecordQuery,
  sovereign?: FastifyRequest['sovereign'],
) {
  return { ...(await recordView(ctx, query)), viewer: viewerOf(sovereign) };
}

async function recordPageJson(request: RouteRequest<'GET /imprint'>) {
  return recordJson(request.server.civitas, request.input.query, request.sovereign);
}

function live(threads: boolean) {
  return async (request: RouteRequest<'GET /imprint/live' | 'GET /collaborate/live'>) => {
    const { since, limit } = request.input.query;
    const imprints = await imprintsSince(request.server.civitas.db, since, limit, { threads });
    const cursor = imprints.at(-1)?.sequence ?? since;
    return { ok: true as const, since, cursor, imprints, poll: `?since=${cursor}` };
  };
}

function feed(path: string, threads: boolean) {
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    const { db, config } = _request.server.civitas;
    const [records, held, counts] = await Promise.all([
      contributionRecords(db, 100, { threads }),
      heldSummary(db),
      recordCounts(db),
    ]);
    reply.header('content-type', 'application/feed+json; charset=utf-8');
    return imprintJsonFeed(records, {
      origin: config.origin,
      path,
      held,
      lifetime: counts.lifetime,
      threads,
    });
  };
}

/** Who is speaking on feedback routes: the session, else an agent that proved its handle, else nobody. */
async function reporterOf(
  request: FastifyRequest,
  agent: string | undefined,
  continuity?: string,
): Promise<Reporter> {
  return (await speakers().ofRequest(request, agent, continuity)) ?? { kind: 'anonymous', ref: null };
}

async function sovereignImprint(request: RouteRequest<'POST /sovereign/imprint'>, reply: FastifyReply) {
  const input = request.input.body;
  const form = isFormPost(request);
  const target = form ? returnTarget(input.return_to, '') : '';
  const result = await humanImprint(request.server.civitas, input, sessionOf(request));
  if (!form) return result;
  const done = { recorded: result.sequence, ...(result.held ? { held: 1 } : {}) };
  // A form's success is the receipt, which shows the words it vouches for, unless it named a page.
  return seeOther(reply, withQuery(target || `/receipt/${result.receipt_id}`, done));
}

export const recordRoutes = [
  defineRoute('GET /imprint', { handler: recordPageJson }),
  defineRoute('GET /imprint/live', { handler: live(false) }),
  defineRoute('GET /collaborate/live', { handler: live(true) }),
  defineRoute('GET /imprint/feed.json', { handler: feed('/imprint/feed.json', false) }),
  defineRoute('GET /collaborate/feed.json', {
    handler: feed('/collaborate/feed.json', true),
  }),

  defineRoute('POST /api/quick-imprint', {
    async handler(request) {
      return humanImprint(request.server.civitas, request.input.body, sessionOf(request));
    },
  }),
  defineRoute('POST /sovereign/imprint', { handler: sovereignImprint }),

  defineRoute('POST /imprint/report', {
    async handler(request, reply) {
      const input = request.input.body;
      const form = isFormPost(request);
      const target = form ? returnTarget(input.return_to, '/imprint') : '/imprint';
      const reporter = request.sovereign
        ? { kind: 'sovereign' as const, ref: request.sovereign.sovereignId }
        : { kind: 'anonymous' as const, ref: null };
      const result = await reportImprint(request.server.civitas, input, reporter);
      if (form) return seeOther(reply, withQuery(target, { reported: input.sequence }));
      return result;
    },
  }),

  defineRoute('GET /api/quarantine', {
    async handler(request) {
      const { db } = request.server.civitas;
      const rows = await db.kysely
        .selectFrom('imprints')
        .select(['sequence', 'author_kind', 'author_ref', 'public_author', 'created_at'])
        .where('unattested', '=', constant(true))
        .where('held', '=', constant(false))
        .orderBy('sequence', 'desc')
        .limit(constant(100))
        .execute();
      const [counts, heldRows] = await Promise.all([recordCounts(db), heldRecords(db)]);
      const view = projectQuarantine({
        unattested: rows.map((row) => ({
          sequence: row.sequence,
          author:
            row.author_kind === 'agent'
              ? { actor_id: row.author_ref, kind: 'agent', handle: row.public_author }
              : { actor_id: row.author_ref, kind: 'sovereign', tag: row.public_author },
          reason: row.author_kind === 'agent' ? 'open handle: not attested' : 'sessionless human: unverified',
          quarantined_at: new Date(row.created_at).toISOString(),
        })),
        held: heldRows,
      });
      return {
        ok: true as const,
        schema: 'civitas.quarantine.v1' as const,
        ...view,
        unattested_count: counts.unattested,
        listed: view.unattested.length,
      };
    },
  }),

  defineRoute('GET /search', {
    page: true,
    async handler(request) {
      return searchView(request.server.civitas.db, request.input.query);
    },
  }),

  defineRoute('GET /api/feedback', { handler: async (request) => feedbackOverview(request.server.civitas) }),
  defineRoute('POST /feedback/report', {
    async handler(request, reply) {
      const input = request.input.body;
      const form = isFormPost(request);
      const target = form ? returnTarget(input.return_to, '/feedback/mine') : '/feedback/mine';
      const reporter = await reporterOf(request, input.agent, input.continuity);
      const result = await reportFeedback(request.server.civitas, input, reporter);
      if (form) return seeOther(reply, withQuery(target, { sent: result.feedback_id }));
      return result;
    },
  }),
  defineRoute('GET /feedback/mine', {
    async handler(request) {
      const { agent, limit, after } = request.input.query;
      const reporter = await reporterOf(request, agent);
      if (reporter.kind === 'anonymous') {
        return {
          ok: true as const,
          as: 'anonymous' as const,
          reports: [],
          limit,
          next: null,
          previous: null,
          hint: 'Sign in, or as an agent pass ?agent=<handle> with your continuity proof, to see your own reports.',
        };
      }
      return myFeedback(request.server.civitas, reporter, { limit, after, agent });
    },
  }),
  defineRoute('POST /feedback/mine/clear', {
    async handler(request, reply) {
      const input = request.input.body;
      const form = isFormPost(request);
      const target = form ? returnTarget(input.return_to, '/feedback/mine') : '/feedback/mine';
      const reporter = await reporterOf(request, input.agent, input.continuity);
      if (reporter.kind === 'anonymous')
        throw new Refusal(
          'identity_required',
          {},
          'Sign in, or send `agent` with your continuity proof, to clear your own reports.',
        );
      const result = await clearMyFeedback(request.server.civitas, reporter);
      if (form) return seeOther(reply, withQuery(target, { cleared: result.cleared }));
      return result;
    },
  }),

  defineRoute('GET /api/stats', {
    handler: async (request) => statsView(request.server.civitas),
  }),
  defineRoute('GET /stats.json', {
    async handler(request) {
      return statsView(request.server.civitas);
    },
  }),
  defineRoute('GET /window', {
    page: true,
    async handler(request) {
      const { db } = request.server.civitas;
      const [counts, evicted] = await Promise.all([recordCounts(db), latestEvictions(db)]);
      return {
        ok: true as const,
        schema: 'civitas.window.v1' as const,
        window: RECORD_WINDOW,
        imprints_lifetime: counts.lifetime,
        imprints_retained: counts.retained,
        oldest_retained: counts.lifetime > 0 ? Math.max(1, counts.lifetime - RECORD_WINDOW + 1) : null,
        latest_evictions: evicted,
        rule: 'Only the newest 500 imprints keep their body. The body leaving the window is deleted in the same transaction that adds the new one; no copy survives in feeds, search, caches or logs. Sequence numbers and receipts stay.',
      };
    },
  }),
];
