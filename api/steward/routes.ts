import type { FastifyReply } from 'fastify';
import { defineRoute, type RouteRequest } from '../route.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { stewardHybrid, stewardOnly } from '../http-steward.ts';
import { sessionOf } from '../plugins/session.ts';
import { heldQueue, whisperArchive } from './queue.ts';
import { lessonsView, recordLesson } from './lessons.ts';
import { triage } from './triage.ts';

async function triageHandler(request: RouteRequest<'POST /sovereign/triage'>, reply: FastifyReply) {
  const steward = sessionOf(request);
  const input = request.input.body;
  const form = isFormPost(request);
  // A bad return_to is refused before anything is decided.
  const next = returnTarget(input.return_to, '/steward/held');
  const result = await triage(request.server.civitas, steward, input);
  stewardOnly(reply);
  if (form)
    return seeOther(
      reply,
      withQuery(next, { triaged: result.action, target: result.target, receipt: result.receipt_id }),
    );
  return result;
}

async function lessonHandler(request: RouteRequest<'POST /steward/lesson'>, reply: FastifyReply) {
  const steward = sessionOf(request);
  const input = request.input.body;
  const form = isFormPost(request);
  const next = returnTarget(input.return_to, '/operator');
  const result = await recordLesson(request.server.civitas, steward, input);
  stewardOnly(reply);
  if (form) return seeOther(reply, withQuery(next, { lesson: result.lesson.id }));
  return result;
}

export const stewardRoutes = [
  defineRoute('POST /sovereign/triage', { handler: triageHandler }),
  defineRoute('POST /steward/lesson', { handler: lessonHandler }),
  defineRoute('GET /steward/held', {
    ...stewardHybrid((request) =>
      heldQueue(request.server.civitas, (request as RouteRequest<'GET /steward/held'>).input.query),
    ),
  }),
  defineRoute('GET /steward/whispers', {
    ...stewardHybrid((request) =>
      whisperArchive(request.server.civitas, (request as RouteRequest<'GET /steward/whispers'>).input.query),
    ),
  }),
  defineRoute('GET /api/hive/lessons', {
    async handler(request) {
      return lessonsView(request.server.civitas, request.input.query);
    },
  }),
];
