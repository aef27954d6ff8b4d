import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { defineRoute, parseInput } from '../route.ts';
import { isFormPost, returnTarget, seeOther, withQuery } from '../http.ts';
import { blank } from '../../shared/record/imprint.ts';
import { bodyOf, listQuery, stewardHybrid, stewardOf, stewardOnly } from './http.ts';
import { heldQueue, whisperArchive } from './queue.ts';
import { lessonFields, lessonsView, recordLesson } from './lessons.ts';
import { triage, triageFields } from './triage.ts';
import { sovereignRefusal } from '../../shared/policy.ts';

const returnField = { return_to: z.preprocess(blank, z.string().max(2048, 'return_to is at most 2048 characters').optional()) };
const triageBody = z.object({ ...triageFields, ...returnField });
const lessonBody = z.object({ ...lessonFields, ...returnField });
const lessonsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) });

async function triageHandler(request: FastifyRequest, reply: FastifyReply) {
  const refusal = sovereignRefusal('triage', request.sovereign ?? null); // the policy evaluate applies too
  if (refusal) throw refusal;
  const steward = stewardOf(request);
  const input = parseInput(triageBody, bodyOf(request));
  const form = isFormPost(request);
  // A bad return_to is refused before anything is decided.
  const next = returnTarget(input.return_to, '/steward/held');
  const result = await triage(request.server.civitas, steward, input);
  stewardOnly(reply);
  if (form) return seeOther(reply, withQuery(next, { triaged: result.action, target: result.target }));
  return result;
}

async function lessonHandler(request: FastifyRequest, reply: FastifyReply) {
  const steward = stewardOf(request);
  const input = parseInput(lessonBody, bodyOf(request));
  const form = isFormPost(request);
  const next = returnTarget(input.return_to, '/operator');
  const result = await recordLesson(request.server.civitas, steward, input);
  stewardOnly(reply);
  if (form) return seeOther(reply, withQuery(next, { lesson: result.lesson.id }));
  return result;
}

export const stewardRoutes = [
  defineRoute('POST /sovereign/triage', { sameOrigin: 'form', handler: triageHandler }),
  defineRoute('POST /steward/lesson', { sameOrigin: 'form', handler: lessonHandler }),
  defineRoute('GET /steward/held', stewardHybrid((request) => heldQueue(request.server.civitas, parseInput(listQuery, request.query)))),
  defineRoute('GET /steward/whispers', stewardHybrid((request) => whisperArchive(request.server.civitas, parseInput(listQuery, request.query)))),
  defineRoute('GET /api/hive/lessons', {
    async handler(request, reply) {
      const view = await lessonsView(request.server.civitas, parseInput(lessonsQuery, request.query));
      reply.header('cache-control', 'public, max-age=60');
      return view;
    },
  }),
];
