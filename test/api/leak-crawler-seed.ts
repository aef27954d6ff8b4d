/**
 * What the leak crawler looks for: sovereigns, agents, emails, secrets, held spam, private notes and
 * denials seeded through the API where the route exists (else the store), each carrying a unique
 * sentinel, plus the real private values the service generated. Every one is kept as a Secret.
 * This file seeds what people and agents make through the doors; the hashes, notes and steward
 * triage the store keeps privately are leak-crawler-kept.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { appendImprint } from '../../api/record/window.ts';
import { callsignRoot } from '../../api/people/confluences.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signedInSovereign, type TestSovereign } from '../helpers/identity.ts';
import { fromOwnPages } from '../helpers/builders.ts';
import { requests } from '../helpers/http.ts';
import { seedKeptPrivately } from './leak-crawler-kept.ts';
import { missing } from '../helpers/elements.ts';
import { imprintDraft } from '../helpers/imprint-draft.ts';

const RUN = randomBytes(4).toString('hex');
export const mark = (what: string) => `leaksentinel-${what}-${RUN}`;

export interface Secret {
  what: string;
  value: string;
}

/** The seeded app and everything private in it, with the values the crawl fills paths from. */
export interface Seeded {
  t: TestApp;
  secrets: Secret[];
  seeded: string[];
  owner: TestSovereign;
  stranger: TestSovereign;
  agentHandle: string;
  receiptId: string;
  sequence: number;
  today: string;
}

export async function seedPrivateValues(): Promise<Seeded> {
  const secrets: Secret[] = [];
  const seeded: string[] = [];
  const keep = (what: string, value: string | null | undefined) => {
    if (typeof value === 'string' && value.length >= 6) secrets.push({ what, value });
  };
  /** Runs a seeding statement that needs a table another family may not have migrated yet. */
  async function optional(what: string, work: () => Promise<unknown>) {
    try {
      await work();
      seeded.push(`${what} (store)`);
    } catch {
      seeded.push(`${what}: not seeded, no store for it yet`);
    }
  }

  // One configured steward (by raw id), so triage notes are seeded through the real route.
  const stewardId = randomUUID();
  // With the built site mounted, so page HTML rendered by Astro is crawled too (npm test builds first).
  const t = await createTestApp({ site: true, config: { stewards: [stewardId] } });
  const db = t.database.db;
  const { post, form } = requests(() => t.app);
  const today = t.clock.now().toISOString().slice(0, 10);

  // Sovereigns: raw ids, keys, hidden callsigns, emails; one owner of things, one stranger who crawls.
  const owner = await signedInSovereign(t.app, { callsign: mark('hidden-callsign'), governance: true });
  const second = await signedInSovereign(t.app, { callsign: mark('callsign-root') });
  const stranger = await signedInSovereign(t.app);
  for (const [name, who] of [
    ['owner', owner],
    ['second', second],
    ['stranger', stranger],
  ] as const) {
    keep(`${name} raw sovereign id`, who.id);
    keep(`${name} sovereign key`, who.key);
    keep(`${name} session cookie value`, who.cookie.split('=')[1]);
  }
  keep('hidden callsign', mark('hidden-callsign'));
  keep('callsign root', mark('callsign-root'));

  const emailRes = await form(
    '/sovereign/email',
    `email=${encodeURIComponent(`${mark('email')}@example.invalid`)}&return_to=%2Fsovereign`,
    fromOwnPages(owner),
  );
  const [ownerRow = missing()] = await db.query<{ email: string | null; email_pending?: string | null }>(
    'select * from sovereigns where id = $1',
    [owner.id],
  );
  if (emailRes.statusCode >= 200 && emailRes.statusCode < 400 && (ownerRow.email_pending ?? ownerRow.email))
    seeded.push('owner email (API)');
  else {
    await db.query('update sovereigns set email = $2 where id = $1', [
      owner.id,
      `${mark('email')}@example.invalid`,
    ]);
    seeded.push('owner email (store)');
  }
  await db.query('update sovereigns set email = $2, email_verified_at = now() where id = $1', [
    second.id,
    `${mark('email-verified')}@example.invalid`,
  ]);
  seeded.push('second email (store)');
  keep('owner email', `${mark('email')}@example.invalid`);
  keep('verified email', `${mark('email-verified')}@example.invalid`);

  // Agents through the API: the continuity secret is returned once and must never be seen again.
  const agentHandle = `leak-agent-${RUN}`;
  const first = await post('/api/agent/imprint', {
    agent: agentHandle,
    body: 'A public thought, left in the Record on purpose.',
    kind: 'thought',
  });
  expect(first.statusCode).toBe(200);
  const firstBody = first.json();
  keep('continuity secret', firstBody.continuity_secret);
  const receiptId = firstBody.receipt_id;
  const sequence = firstBody.sequence;
  seeded.push('agent and continuity secret (API)');
  const again = await post(
    '/api/agent/imprint',
    { agent: agentHandle, body: 'A question for everyone?', kind: 'question' },
    { 'x-civitas-continuity': firstBody.continuity_secret },
  );
  expect(again.statusCode).toBe(200);

  // Held spam: through the API's gate when it holds it; otherwise held in the store directly.
  const spammer = mark('spam-name');
  const spamBody = `${mark('spam-body')} buy cheap followers http://a.example http://b.example http://c.example http://d.example`;
  keep('held spam author name', spammer);
  keep('held spam body', mark('spam-body'));
  const spam = await post('/api/agent/imprint', { agent: spammer, body: spamBody });
  const spamResult = spam.statusCode === 200 ? spam.json() : null;
  if (spamResult?.held === true) {
    seeded.push('held spam (API, gate)');
  } else {
    if (spamResult?.sequence)
      await db.query('update imprints set held = true, held_reason = $2 where sequence = $1', [
        spamResult.sequence,
        'link_density',
      ]);
    else {
      await db.transaction((tx) =>
        appendImprint(
          tx,
          imprintDraft({
            body: spamBody,
            authorRef: spammer,
            unattested: true,
            held: true,
            heldReason: 'link_density',
            at: t.clock.now(),
          }),
        ),
      );
    }
    seeded.push('held spam (store: the gate did not hold it through the API)');
  }
  keep('spammer continuity secret', spamResult?.continuity_secret);

  // A sovereign's own imprint: its stored author_ref is the raw id.
  const human = await form(
    '/sovereign/imprint',
    'body=A%20human%20thought&kind=thought&return_to=%2Fimprint',
    fromOwnPages(owner),
  );
  const [stored = missing()] = await db.query<{ n: string | number }>(
    'select count(*) as n from imprints where author_ref = $1',
    [owner.id],
  );
  if (human.statusCode >= 200 && human.statusCode < 400 && Number(stored.n) > 0)
    seeded.push('sovereign imprint (API)');
  else {
    await db.transaction((tx) =>
      appendImprint(
        tx,
        imprintDraft({
          body: 'A human thought.',
          authorKind: 'sovereign',
          authorRef: owner.id,
          publicAuthor: owner.tag,
          at: t.clock.now(),
        }),
      ),
    );
    seeded.push('sovereign imprint (store)');
  }

  // A confluence convened by the sovereign whose callsign carries the callsign-root sentinel: five
  // others join its thread, so it is current on presence, the commons, the card and the due feeds.
  const quick = (who: TestSovereign, body: string, replyTo?: number) =>
    post('/api/quick-imprint', { body, kind: 'thought', ...(replyTo ? { reply_to: replyTo } : {}) }, who);
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
  const feed = await post('/sovereign/email', { action: 'rotate_feed_token' }, owner.cookie);
  if (feed.statusCode === 200) {
    keep('due feed token', feed.json().subscription.token);
    seeded.push('due feed token (API)');
  } else seeded.push(`due feed token: answered ${feed.statusCode}, not seeded`);
  for (const row of await db.query<{ due_token_hash: string | null }>(
    'select due_token_hash from sovereigns',
  ))
    keep('due feed token hash', row.due_token_hash);

  await seedKeptPrivately({
    t,
    keep,
    optional,
    seeded,
    mark,
    owner,
    second,
    agentHandle,
    receiptId,
    sequence,
    stewardId,
  });
  console.info(`leak crawler seeded: ${seeded.join('; ')}`);
  return { t, secrets, seeded, owner, stranger, agentHandle, receiptId, sequence, today };
}
