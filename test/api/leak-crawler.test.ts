/**
 * The leak crawler: nothing private on any public surface.
 *
 * Seeds the database with sovereigns, agents, emails, secrets, held spam, private notes and
 * denials, each carrying a unique sentinel (and the real private values the service generated:
 * raw sovereign ids, keys, secret and key hashes, session values). Then it requests every
 * published GET route of the registry (path parameters filled from the seeded data), as an
 * anonymous visitor and as a signed-in stranger, in JSON and in the default representation, and
 * calls every read-only MCP tool, and asserts that no sentinel appears in any body or header.
 *
 * Seeding goes through the API where the route exists and falls back to the store where it does
 * not yet (each fallback is listed in `seeded` and printed), so the crawl grows by itself: a route
 * answering 501 today leaks nothing; the day it is built, it is crawled with real data.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_ROUTES, fillPath, isStaticPlaceholder, pathParams } from '../../shared/registry/index.ts';
import { appendImprint } from '../../api/record/window.ts';
import { recordReceipt } from '../../api/ledger/receipts.ts';
import { MCP_TOOLS } from '../../api/families.ts';
import { callsignRoot } from '../../api/people/confluences.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';
import { sovereignWithId } from './steward/helpers.ts';

const RUN = randomBytes(4).toString('hex');
const mark = (what: string) => `leaksentinel-${what}-${RUN}`;

interface Secret {
  what: string;
  value: string;
}

let t: TestApp;
const secrets: Secret[] = [];
const seeded: string[] = [];
const keep = (what: string, value: string | null | undefined) => {
  if (typeof value === 'string' && value.length >= 6) secrets.push({ what, value });
};

let owner: TestSovereign;
let stranger: TestSovereign;
let agentHandle: string;
let receiptId: string;
let sequence: number;
let today: string;

/** Runs a seeding statement that needs a table another family may not have migrated yet. */
async function optional(what: string, work: () => Promise<unknown>) {
  try {
    await work();
    seeded.push(`${what} (store)`);
  } catch {
    seeded.push(`${what}: not seeded, no store for it yet`);
  }
}

const sameOriginForm = (cookie: string) => ({
  cookie,
  origin: TEST_ORIGIN,
  'sec-fetch-site': 'same-origin',
  'content-type': 'application/x-www-form-urlencoded',
});

beforeAll(async () => {
  // One configured steward (by raw id), so triage notes are seeded through the real route.
  const stewardId = randomUUID();
  // With the built site mounted, so page HTML rendered by Astro is crawled too (npm test builds first).
  t = await createTestApp({ site: true, config: { stewards: [stewardId] } });
  const db = t.database.db;
  today = t.clock.now().toISOString().slice(0, 10);

  // Sovereigns: raw ids, keys, hidden callsigns, emails; one owner of things, one stranger who crawls.
  owner = await signedInSovereign(t.app, { callsign: mark('hidden-callsign'), governance: true });
  const second = await signedInSovereign(t.app, { callsign: mark('callsign-root') });
  stranger = await signedInSovereign(t.app);
  for (const [name, who] of [['owner', owner], ['second', second], ['stranger', stranger]] as const) {
    keep(`${name} raw sovereign id`, who.id);
    keep(`${name} sovereign key`, who.key);
    keep(`${name} session cookie value`, who.cookie.split('=')[1]);
  }
  keep('hidden callsign', mark('hidden-callsign'));
  keep('callsign root', mark('callsign-root'));

  const emailRes = await t.app.inject({ method: 'POST', url: '/sovereign/email', headers: sameOriginForm(owner.cookie), payload: `email=${encodeURIComponent(`${mark('email')}@example.invalid`)}&return_to=%2Fsovereign` });
  const [ownerRow] = await db.query<{ email: string | null; email_pending?: string | null }>('select * from sovereigns where id = $1', [owner.id]);
  if (emailRes.statusCode >= 200 && emailRes.statusCode < 400 && (ownerRow.email_pending ?? ownerRow.email)) seeded.push('owner email (API)');
  else {
    await db.query('update sovereigns set email = $2 where id = $1', [owner.id, `${mark('email')}@example.invalid`]);
    seeded.push('owner email (store)');
  }
  await db.query('update sovereigns set email = $2, email_verified_at = now() where id = $1', [second.id, `${mark('email-verified')}@example.invalid`]);
  seeded.push('second email (store)');
  keep('owner email', `${mark('email')}@example.invalid`);
  keep('verified email', `${mark('email-verified')}@example.invalid`);

  // Agents through the API: the continuity secret is returned once and must never be seen again.
  agentHandle = `leak-agent-${RUN}`;
  const first = await t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent: agentHandle, body: 'A public thought, left in the Record on purpose.', kind: 'thought' } });
  expect(first.statusCode).toBe(200);
  const firstBody = first.json();
  keep('continuity secret', firstBody.continuity_secret);
  receiptId = firstBody.receipt_id;
  sequence = firstBody.sequence;
  seeded.push('agent and continuity secret (API)');
  const again = await t.app.inject({
    method: 'POST',
    url: '/api/agent/imprint',
    headers: { 'x-civitas-continuity': firstBody.continuity_secret },
    payload: { agent: agentHandle, body: 'A question for everyone?', kind: 'question' },
  });
  expect(again.statusCode).toBe(200);

  // Held spam: through the API's gate when it holds it; otherwise held in the store directly.
  const spammer = mark('spam-name');
  const spamBody = `${mark('spam-body')} buy cheap followers http://a.example http://b.example http://c.example http://d.example`;
  keep('held spam author name', spammer);
  keep('held spam body', mark('spam-body'));
  const spam = await t.app.inject({ method: 'POST', url: '/api/agent/imprint', payload: { agent: spammer, body: spamBody } });
  const spamResult = spam.statusCode === 200 ? spam.json() : null;
  if (spamResult?.held === true) {
    seeded.push('held spam (API, gate)');
  } else {
    if (spamResult?.sequence) await db.query('update imprints set held = true, held_reason = $2 where sequence = $1', [spamResult.sequence, 'link_density']);
    else {
      await db.transaction((tx) =>
        appendImprint(tx, { kind: 'thought', body: spamBody, authorKind: 'agent', authorRef: spammer, publicAuthor: spammer, unattested: true, held: true, heldReason: 'link_density', replyTo: null, at: t.clock.now() }),
      );
    }
    seeded.push('held spam (store: the gate did not hold it through the API)');
  }
  keep('spammer continuity secret', spamResult?.continuity_secret);

  // A sovereign's own imprint: its stored author_ref is the raw id.
  const human = await t.app.inject({ method: 'POST', url: '/sovereign/imprint', headers: sameOriginForm(owner.cookie), payload: 'body=A%20human%20thought&kind=thought&return_to=%2Fimprint' });
  const [stored] = await db.query<{ n: string | number }>('select count(*) as n from imprints where author_ref = $1', [owner.id]);
  if (human.statusCode >= 200 && human.statusCode < 400 && Number(stored.n) > 0) seeded.push('sovereign imprint (API)');
  else {
    await db.transaction((tx) =>
      appendImprint(tx, { kind: 'thought', body: 'A human thought.', authorKind: 'sovereign', authorRef: owner.id, publicAuthor: owner.tag, unattested: false, held: false, heldReason: null, replyTo: null, at: t.clock.now() }),
    );
    seeded.push('sovereign imprint (store)');
  }

  // A confluence convened by the sovereign whose callsign carries the callsign-root sentinel: five
  // others join its thread, so it is current on presence, the commons, the card and the due feeds.
  const quick = (who: TestSovereign, body: string, replyTo?: number) =>
    t.app.inject({ method: 'POST', url: '/api/quick-imprint', headers: { cookie: who.cookie }, payload: { body, kind: 'thought', ...(replyTo ? { reply_to: replyTo } : {}) } });
  const gathering = await quick(second, 'An open gathering for the crawl');
  if (gathering.statusCode === 200) {
    const rootSequence = gathering.json().sequence;
    for (let i = 0; i < 5; i++) {
      const joiner = await signedInSovereign(t.app);
      keep(`confluence participant ${i} raw id`, joiner.id);
      await quick(joiner, 'Joining the gathering.', rootSequence);
    }
    keep('confluence callsign root', callsignRoot(mark('callsign-root')));
    keep('confluence slug', `${callsignRoot(mark('callsign-root'))}-${rootSequence}`);
    seeded.push('confluence with five participants (API)');
  } else seeded.push(`confluence: quick imprint answered ${gathering.statusCode}, not seeded`);

  // The owner's due-feed token (the URL a calendar app holds) and its stored hash.
  const feed = await t.app.inject({ method: 'POST', url: '/sovereign/email', headers: { cookie: owner.cookie, accept: 'application/json' }, payload: { action: 'rotate_feed_token' } });
  if (feed.statusCode === 200) {
    keep('due feed token', feed.json().subscription.token);
    seeded.push('due feed token (API)');
  } else seeded.push(`due feed token: answered ${feed.statusCode}, not seeded`);
  for (const row of await db.query<{ due_token_hash: string | null }>('select due_token_hash from sovereigns')) keep('due feed token hash', row.due_token_hash);

  // Private values the store keeps: hashes of secrets and keys, private notes, denials, data requests.
  for (const row of await db.query<{ secret_hash: string }>('select secret_hash from agents')) keep('agent secret hash', row.secret_hash);
  for (const row of await db.query<{ key_hash: string | null }>('select key_hash from sovereigns')) keep('sovereign key hash', row.key_hash);
  for (const row of await db.query<{ id_hash: string }>('select id_hash from sessions')) keep('session id hash', row.id_hash);
  await optional('agent private note', () =>
    db.query('insert into agent_notes (handle, note, updated_at) values ($1, $2, now())', [agentHandle, mark('agent-note')]),
  );
  keep('agent private note', mark('agent-note'));
  await optional('denial with crossing actor', () =>
    db.transaction(async (tx) => {
      const receipt = await recordReceipt(tx, { step: 'identity.denied', subject: 'crossing:denied', at: t.clock.now() });
      await tx.query(
        'insert into denials (receipt_id, denied_action, reason, actor_kind, actor_ref, actor_public, recorded_at) values ($1, $2, $3, $4, $5, $6, now())',
        [receipt.id, 'cross', 'rate', 'sovereign', second.id, mark('denied-public')],
      );
    }),
  );
  keep('denied actor public form', mark('denied-public'));
  await optional('steward note on a data request', () =>
    db.query(
      "insert into data_requests (id, sovereign_id, kind, status, created_at, processed_at, processed_by, note, receipt_id) values ($1, $2, 'export', 'completed', now(), now(), $3, $4, $5)",
      [`dr_${RUN}`, second.id, mark('steward-id'), mark('steward-note'), receiptId],
    ),
  );
  keep('steward note', mark('steward-note'));
  keep('steward id', mark('steward-id'));
  await optional('pending email token', () =>
    db.query('update sovereigns set email_pending = $2, email_token_hash = $3 where id = $1', [owner.id, `${mark('email-pending')}@example.invalid`, mark('email-token-hash')]),
  );
  keep('pending email', mark('email-pending'));
  keep('email token hash', mark('email-token-hash'));
  await optional('identity-provider subject', () =>
    db.query('update sovereigns set idp_issuer = $2, idp_subject = $3 where id = $1', [second.id, 'https://idp.example', mark('idp-subject')]),
  );
  keep('identity-provider subject', mark('idp-subject'));
  // Steward triage through POST /sovereign/triage: private notes (whispers) and a reporter's words.
  const steward = await sovereignWithId(t, stewardId);
  keep('steward raw sovereign id', steward.id);
  keep('steward session cookie value', steward.cookie.split('=')[1]);
  const [heldRow] = await db.query<{ sequence: string | number }>('select sequence from imprints where held order by sequence desc limit 1');
  const triageJson = { cookie: steward.cookie, accept: 'application/json' };
  const kept = await t.app.inject({ method: 'POST', url: '/sovereign/triage', headers: triageJson, payload: { target: `imprint:${heldRow.sequence}`, action: 'keep_held', note: mark('triage-note') } });
  keep('triage steward note', mark('triage-note'));
  const report = await t.app.inject({ method: 'POST', url: '/imprint/report', headers: { accept: 'application/json' }, payload: { sequence, reason: 'other', detail: mark('report-detail') } });
  keep('report detail', mark('report-detail'));
  const dismissed = report.statusCode === 200
    ? await t.app.inject({ method: 'POST', url: '/sovereign/triage', headers: triageJson, payload: { target: report.json().report_id, action: 'dismiss', note: mark('dismiss-note') } })
    : null;
  keep('dismiss steward note', mark('dismiss-note'));
  if (kept.statusCode === 200 && dismissed?.statusCode === 200) seeded.push('whisper steward notes: triage keep_held and dismiss with notes (API)');
  else seeded.push(`whisper steward notes: triage answered ${kept.statusCode}/${dismissed?.statusCode ?? report.statusCode}, not seeded`);
  console.info(`leak crawler seeded: ${seeded.join('; ')}`);
}, 120_000);

afterAll(async () => t?.close());

function findLeaks(text: string): string[] {
  const lower = text.toLowerCase();
  return secrets.filter((secret) => lower.includes(secret.value.toLowerCase())).map((secret) => secret.what);
}

/** Candidate values for each path parameter, from the seeded data. */
function paramValues(): Record<string, string[]> {
  return {
    id: [receiptId, String(sequence)],
    handle: [agentHandle],
    entity: [`agent:${agentHandle}`, `sovereign:${owner.tag}`, `imprint:${sequence}`],
    token: [receiptId],
    tag: [owner.tag, 'v0.1.0'],
    claim: [receiptId],
    surface: ['record'],
    date: [today],
    release: ['1'],
  };
}

function urlsFor(path: string, publicActor: boolean): string[] {
  const names = pathParams(path);
  const values = paramValues();
  let filled: Record<string, string>[] = [{}];
  for (const name of names) filled = filled.flatMap((partial) => (values[name] ?? ['x']).map((value) => ({ ...partial, [name]: value })));
  const urls = filled.map((params) => fillPath(path, params));
  const queries = ['', `?handle=${agentHandle}`];
  if (publicActor) queries.push(`?actor=agent:${agentHandle}`, `?actor=sovereign:${owner.tag}`);
  return urls.flatMap((url) => queries.map((query) => url + query));
}

describe('leak crawler', () => {
  it('seeded private values to look for', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(20);
    expect(secrets.some((s) => s.what === 'continuity secret')).toBe(true);
    expect(secrets.some((s) => s.what === 'held spam body')).toBe(true);
    expect(secrets.some((s) => s.what === 'due feed token')).toBe(true);
    expect(secrets.some((s) => s.what === 'confluence slug')).toBe(true);
  });

  it('finds no sentinel on any published GET route, anonymous or as a signed-in stranger', async () => {
    const routes = PUBLISHED_ROUTES.filter((route) => route.methods.includes('GET') && !isStaticPlaceholder(route.path));
    expect(routes.length).toBeGreaterThan(150);
    const leaks: string[] = [];
    const statuses = new Map<number, number>();
    let requests = 0;
    for (const route of routes) {
      for (const url of urlsFor(route.path, route.publicActor === 'required')) {
        for (const cookie of [undefined, stranger.cookie]) {
          for (const accept of ['application/json', 'text/html,*/*']) {
            const headers: Record<string, string> = { accept };
            if (cookie) headers.cookie = cookie;
            const res = await t.app.inject({ method: 'GET', url, headers });
            requests += 1;
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            const found = findLeaks(`${JSON.stringify(res.headers)}\n${res.body}`);
            if (found.length) leaks.push(`${url} (${cookie ? 'stranger' : 'anonymous'}, ${accept}, ${res.statusCode}): ${found.join(', ')}`);
          }
        }
      }
    }
    console.info(`leak crawler: ${requests} requests over ${routes.length} GET routes; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(leaks).toEqual([]);
  }, 180_000);

  it('finds no sentinel in any read-only MCP tool', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'leak-crawler', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const values = paramValues();
    const argumentFor = (name: string): unknown => {
      if (name === 'limit') return 50;
      if (name in values) return values[name][0];
      if (name === 'query' || name === 'q') return 'thought';
      return undefined;
    };
    try {
      const { tools } = await client.listTools();
      const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint === true);
      expect(readOnly.length).toBeGreaterThanOrEqual(MCP_TOOLS.filter((tool) => tool.annotations?.readOnlyHint).length);
      const leaks: string[] = [];
      for (const tool of readOnly) {
        const args: Record<string, unknown> = {};
        for (const name of Object.keys(tool.inputSchema.properties ?? {})) {
          const value = argumentFor(name);
          if (value !== undefined) args[name] = value;
        }
        const result = await client.callTool({ name: tool.name, arguments: args });
        const found = findLeaks(JSON.stringify(result));
        if (found.length) leaks.push(`${tool.name}: ${found.join(', ')}`);
      }
      expect(leaks).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('crawls a current confluence (so the confluence surfaces were read with real data)', async () => {
    const presence = await t.app.inject({ method: 'GET', url: '/api/presence', headers: { accept: 'application/json' } });
    expect(presence.json().confluences).toEqual([expect.objectContaining({ title: 'An open gathering for the crawl', participants: 5 })]);
  });

  it('catches a planted leak (the crawler is not blind)', async () => {
    expect(findLeaks(`{"note":"${mark('steward-note')}"}`)).toEqual(['steward note']);
    expect(findLeaks(JSON.stringify({ id: owner.id.toUpperCase() }))).toContain('owner raw sovereign id');
  });
});
