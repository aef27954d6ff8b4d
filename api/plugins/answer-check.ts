/**
 * Every JSON answer held to its operation's declared schema, strictly: a 200 to the contract's
 * `response` (shared/contract.ts), a refusal to the one error shape with the status its reason
 * names (shared/errors.ts), a 402 also to the contract's `quote`. Strict means an object may
 * carry only the fields its schema names: each object schema is read as `z.strictObject` unless
 * it says otherwise itself (`z.looseObject`, a catchall). An implemented operation answering
 * JSON 200 without a declared `response` is a departure too.
 *
 * Only tests turn it on (`CIVITAS_ANSWER_CHECK=strict`, set by vitest.config.ts; api/app.ts
 * registers it then): each departure is recorded in `answerDepartures()`, and
 * test/helpers/answer-check.ts fails the test that caused it. A server of the service run as a
 * child process by a test, where nothing collects them, answers 500 in their place instead.
 * Pages (HTML), feeds and streams are not JSON answers and are not checked.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { ERRORS, errorBody } from '../../shared/errors.ts';
import { contractFor } from '../../shared/registry/contracts.ts';
import { ROUTES, SCOPES, registrableMethods, toFastifyPath } from '../../shared/registry/index.ts';

/** One answer that departs from its schema. */
export interface AnswerDeparture {
  key: string;
  url: string;
  status: number;
  issues: string[];
}

// Process-wide, by global symbols (test/helpers/answer-check.ts reads them without importing this).
const DEPARTURES = Symbol.for('civitas.answerDepartures');
const COLLECTING = Symbol.for('civitas.answerDepartures.collecting');
type Holder = { [DEPARTURES]?: AnswerDeparture[]; [COLLECTING]?: boolean };

/** The departures recorded so far in this process; a test runner that drains them sets COLLECTING. */
export function answerDepartures(): AnswerDeparture[] {
  return ((globalThis as Holder)[DEPARTURES] ??= []);
}

/** The one error shape, strict on the fields it names; a refusal may add its own (`quote`, `found`…). */
const errorShape = z.looseObject({
  ok: z.literal(false),
  reason: z.enum(Object.keys(ERRORS) as [keyof typeof ERRORS, ...(keyof typeof ERRORS)[]]),
  hint: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  scope: z.enum(SCOPES).optional(),
  retry_after: z.number().int().min(0).optional(),
});

const strictCopies = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema with every object that does not say otherwise made strict, all the way down
 * (wrappers, arrays, unions, records, pipes, lazy parts); refinements are kept.
 */
export function strictly<S extends z.ZodType>(schema: S): S {
  const known = strictCopies.get(schema);
  if (known) return known as S;
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const each = (s: unknown) => strictly(s as z.ZodType);
  let next: Record<string, unknown> | undefined;
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      next = {
        ...def,
        shape: Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, each(v)])),
        catchall: def.catchall === undefined ? z.never() : each(def.catchall),
      };
      break;
    }
    case 'array':
      next = { ...def, element: each(def.element) };
      break;
    case 'union':
      next = { ...def, options: (def.options as z.ZodType[]).map(each) };
      break;
    case 'intersection':
      next = { ...def, left: each(def.left), right: each(def.right) };
      break;
    case 'record':
      next = { ...def, valueType: each(def.valueType) };
      break;
    case 'tuple':
      next = {
        ...def,
        items: (def.items as z.ZodType[]).map(each),
        rest: def.rest ? each(def.rest) : def.rest,
      };
      break;
    case 'pipe':
      next = { ...def, in: each(def.in), out: each(def.out) };
      break;
    case 'lazy': {
      const getter = def.getter as () => z.ZodType;
      next = { ...def, getter: () => strictly(getter()) };
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      next = { ...def, innerType: each(def.innerType) };
      break;
    default:
      next = undefined;
  }
  const copy = next ? (schema.clone(next as never) as S) : schema;
  strictCopies.set(schema, copy);
  return copy;
}

/** The registry key of a Fastify route (`GET /api/agent/{handle}`), by its method and Fastify URL. */
function keysByRoute(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const shape of ROUTES)
    for (const method of registrableMethods(shape))
      keys.set(`${method} ${toFastifyPath(shape.path)}`, `${method} ${shape.path}`);
  return keys;
}

function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const at = issue.path.join('.') || '(answer)';
    return issue.code === 'unrecognized_keys'
      ? `${at}: undeclared field(s) ${issue.keys.join(', ')}`
      : `${at}: ${issue.message}`;
  });
}

/** What is wrong with a JSON answer of `key` with `status`, or nothing. */
export function departuresOf(key: string | undefined, status: number, body: unknown): string[] {
  const contract = key ? contractFor(key) : undefined;
  if (status === 200) {
    if (!contract?.response) return key ? [`(answer): ${key} answers JSON but declares no response`] : [];
    const parsed = strictly(contract.response).safeParse(body);
    return parsed.success ? [] : issuesOf(parsed.error);
  }
  if (status < 400) return [];
  // A refusal in the operation's own words (JSON-RPC on /mcp, /health's fields): its response schema.
  if (contract?.response && !(body && typeof body === 'object' && 'reason' in body)) {
    const own = strictly(contract.response).safeParse(body);
    return own.success ? [] : issuesOf(own.error);
  }
  const parsed = errorShape.safeParse(body);
  if (!parsed.success) return issuesOf(parsed.error);
  const issues: string[] = [];
  const { reason } = parsed.data;
  if (ERRORS[reason].status !== status)
    issues.push(`reason ${reason} is a ${ERRORS[reason].status}, not ${status}`);
  if (status === 402 && contract?.quote) {
    const quote = strictly(contract.quote).safeParse((body as { quote?: unknown }).quote);
    if (!quote.success) issues.push(...issuesOf(quote.error).map((i) => `quote.${i}`));
  }
  return issues;
}

/** The answer's text: a string, or bytes (decoded when a handler sent them already compressed). */
function textOf(payload: unknown, coding: unknown): string | null {
  if (typeof payload === 'string') return payload;
  if (!Buffer.isBuffer(payload)) return null;
  if (coding === 'br') return brotliDecompressSync(payload).toString();
  if (coding === 'gzip') return gunzipSync(payload).toString();
  return payload.toString();
}

function isJson(reply: FastifyReply): boolean {
  const type = String(reply.getHeader('content-type') ?? '');
  return type.startsWith('application/json');
}

async function answerCheck(app: FastifyInstance) {
  const keys = keysByRoute();
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.method === 'HEAD' || !isJson(reply)) return payload;
    const text = textOf(payload, reply.getHeader('content-encoding'));
    if (text === null || text === '') return payload;
    const route = request.routeOptions.url;
    const key = route === undefined ? undefined : keys.get(`${request.method} ${route}`);
    let issues: string[];
    try {
      issues = departuresOf(key, reply.statusCode, JSON.parse(text));
    } catch {
      issues = ['(answer): not JSON'];
    }
    if (!issues.length) return payload;
    const departure = { key: key ?? '(no route)', url: request.url, status: reply.statusCode, issues };
    answerDepartures().push(departure);
    if ((globalThis as Holder)[COLLECTING]) return payload;
    request.log.error({ departure }, 'answer departs from its schema');
    reply.code(500);
    const hint = `The answer departs from its schema: ${issues.join('; ')}`;
    return JSON.stringify(errorBody('internal_error', { departure }, hint));
  });
}

export default fp(answerCheck, { name: 'civitas-answer-check' });
