/**
 * The families' smaller tables, written through their real doors (app.inject on the seed's app,
 * at the simulated moment): prophecies, pacts and their stakes and answers, orders and seconds,
 * constitution proposals and cosigns, steward triage and court cases, witness marks. A cast of
 * signed-in sovereigns acts; the first is a steward, all hold the governance scope.
 */
import type { FastifyInstance } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from '../../api/plugins/session.ts';
import {
  fromBase64Url,
  generateLogKey,
  parseNote,
  signatureLine,
  toBase64,
} from '../../shared/ledger/index.ts';
import type { SeedSovereign } from './population.ts';

export interface Cast {
  members: (SeedSovereign & { cookie: string })[];
  witness: Awaited<ReturnType<typeof generateLogKey>>;
  /** pacts still to answer: id, author index, due time */
  pacts: { id: string; author: number; due: number }[];
  /** how each door answered, for the closing summary */
  outcomes: Map<string, number>;
}

/** The cast: governance scope for all (a stored uniqueness check), the first named a steward. */
export async function castOf(app: FastifyInstance, sovereigns: readonly SeedSovereign[]): Promise<Cast> {
  const members = sovereigns.slice(0, 12).map((s) => ({ ...s, cookie: '' }));
  await app.civitas.db.query(
    'update sovereigns set uniqueness_verified_at = created_at where id = any($1::uuid[])',
    [members.map((m) => m.id)],
  );
  const [steward] = members;
  if (steward === undefined) throw new Error('the cast needs at least one sovereign');
  app.civitas.config.stewards.push(steward.tag);
  return { members, witness: await generateLogKey(), pacts: [], outcomes: new Map() };
}

/** Fresh sessions at the simulated moment (a session lasts 30 days). */
export async function signIn(app: FastifyInstance, cast: Cast): Promise<void> {
  const now = app.civitas.clock.now();
  for (const member of cast.members) {
    const value = randomBytes(32).toString('base64url');
    await app.civitas.db.query(
      'insert into sessions (id_hash, sovereign_id, created_at, last_used_at, expires_at) values ($1, $2, $3, $3, $4)',
      [
        createHash('sha256').update(value).digest('hex'),
        member.id,
        now.toISOString(),
        new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
      ],
    );
    member.cookie = `${SESSION_COOKIE}=${value}`;
  }
}

/** The cast member `who` names, counting round the cast (castOf refuses an empty cast). */
function memberOf(cast: Cast, who: number) {
  const member = cast.members[who % cast.members.length];
  if (member === undefined) throw new Error('the cast has no members');
  return member;
}

async function post(app: FastifyInstance, cast: Cast, who: number, url: string, payload: object) {
  const res = await app.inject({
    method: 'POST',
    url,
    payload,
    // A cookie door refuses any request not from the service's own origin (api/plugins/same-origin.ts).
    headers: {
      cookie: memberOf(cast, who).cookie,
      accept: 'application/json',
      origin: app.civitas.config.origin,
    },
  });
  const key = `${url} ${res.statusCode}`;
  cast.outcomes.set(key, (cast.outcomes.get(key) ?? 0) + 1);
  return res.statusCode === 200 ? (res.json() as Record<string, unknown>) : null;
}

/** One round of the day's civic life; `n` counts rounds over the whole seed (varies who acts). */
export async function civicRound(
  app: FastifyInstance,
  cast: Cast,
  n: number,
  heldSequence: number | null,
): Promise<void> {
  const metrics = ['imprints_lifetime', 'agents', 'humans', 'receipts'];
  await post(app, cast, n, '/sovereign/prophecy', {
    metric: metrics[n % metrics.length],
    comparator: 'gte',
    threshold: 1000 * (n % 7),
    probability: 0.2 + (n % 7) / 10,
    due_in_days: 1 + (n % 5),
  });
  const pact = await post(app, cast, n + 1, '/sovereign/pact', {
    title: `Seed pact ${n}`,
    stake: 5,
    due_in_days: 1 + (n % 3),
  });
  if (pact) {
    await post(app, cast, n + 2, '/sovereign/pact/stake', { pact: pact.pact_id, points: 2, side: 'kept' });
    cast.pacts.push({ id: String(pact.pact_id), author: n + 1, due: Date.parse(String(pact.due_at)) });
  }
  const order = await post(app, cast, n + 3, '/sovereign/order', { title: `Seed order ${n}` });
  if (order) await post(app, cast, n + 4, '/sovereign/second', { order: order.order_id });
  if (n % 2 === 0) {
    const proposal = await post(app, cast, n + 5, '/api/constitution/propose', {
      title: `Seed proposal ${n}`,
      text: 'Every receipt stays verifiable for at least ten years.',
    });
    const id = (proposal?.proposal as { id?: string } | undefined)?.id;
    if (id) await post(app, cast, n + 6, '/api/constitution/cosign', { proposal: id });
  }
  if (heldSequence !== null && n % 3 === 0) {
    const target = `imprint:${heldSequence}`;
    await post(app, cast, 0, '/sovereign/triage', { target, action: 'keep_held', note: 'seeded triage' });
    await post(app, cast, n + 7, '/sovereign/court-sign', { case: 'new', target, reason: 'seeded dissent' });
  }
}

/** Pacts come due: most are answered by their author (kept or broken), the rest lapse by the job. */
export async function answerDuePacts(app: FastifyInstance, cast: Cast): Promise<void> {
  const now = app.civitas.clock.now().getTime();
  const due = cast.pacts.filter((p) => p.due <= now);
  cast.pacts = cast.pacts.filter((p) => p.due > now);
  for (const [i, pact] of due.entries()) {
    if (i % 4 === 3) continue;
    await post(app, cast, pact.author, '/sovereign/pact', {
      pact: pact.id,
      outcome: i % 3 ? 'kept' : 'broken',
    });
  }
}

/** A witness cosigns a sealed day's checkpoint. */
export async function witnessDay(app: FastifyInstance, cast: Cast, date: string): Promise<void> {
  const res = await app.inject({
    method: 'GET',
    url: `/verify/anchor/${date}`,
    headers: { accept: 'application/json' },
  });
  if (res.statusCode !== 200) return;
  const name = 'witness.seed.example/w1';
  const line = await signatureLine(parseNote(res.json().checkpoint).text, cast.witness.privateJwk, name);
  await app.inject({
    method: 'POST',
    url: '/api/witness/mark',
    payload: {
      date,
      witness: name,
      public_key: toBase64(fromBase64Url(cast.witness.publicJwk.x)),
      signature: line.trim(),
    },
  });
}
