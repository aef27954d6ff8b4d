import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import type { TestSovereign } from '../../helpers/identity.ts';
import { actorTag } from '../../../shared/boundaries/address-pressure.ts';
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from '../../../api/plugins/session.ts';
import { heldAgentImprint, jsonHeaders, triage } from '../../helpers/builders.ts';
import { requests } from '../../helpers/http.ts';

/**
 * A signed-in sovereign with a chosen raw id, so configuration can name it as a steward before the
 * app starts (raw ids are exact; tags name someone only while unique).
 */
export async function sovereignWithId(t: TestApp, id: string): Promise<TestSovereign> {
  const ctx = t.app.civitas;
  const tag = await actorTag(id, ctx.keys.tagSecret);
  const now = ctx.clock.now();
  await ctx.db.query('insert into sovereigns (id, tag, created_at) values ($1, $2, $3)', [
    id,
    tag,
    now.toISOString(),
  ]);
  const value = randomBytes(32).toString('base64url');
  await ctx.db.query(
    'insert into sessions (id_hash, sovereign_id, created_at, last_used_at, expires_at) values ($1, $2, $3, $3, $4)',
    [
      createHash('sha256').update(value).digest('hex'),
      id,
      now.toISOString(),
      new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString(),
    ],
  );
  return { id, tag, key: '', receiptId: '', cookie: `${SESSION_COOKIE}=${value}` };
}

/** A test app with one configured steward, signed in. */
export async function appWithSteward(
  options: Parameters<typeof createTestApp>[0] = {},
): Promise<{ t: TestApp; steward: TestSovereign }> {
  const id = randomUUID();
  const t = await createTestApp({ ...options, config: { ...options.config, stewards: [id] } });
  return { t, steward: await sovereignWithId(t, id) };
}

/**
 * A court case opened by `opener` against a held imprint the steward kept held, a minute after the
 * last one (a case's id is the ULID of the moment it opens, so ids keep opening order). Answers its id.
 */
export async function openedCase(t: TestApp, steward: TestSovereign, opener: TestSovereign, name: string) {
  t.clock.advance(60_000);
  const { sequence } = await heldAgentImprint(t.app, name, `${name.replace(/[^a-z0-9]/g, '')}mark`);
  await triage(t.app, steward, sequence, 'keep_held', 'kept');
  const res = await requests(() => t.app).post(
    '/sovereign/court-sign',
    { case: 'new', target: `imprint:${sequence}` },
    opener.cookie,
  );
  if (res.statusCode !== 200) throw new Error(`opening a case: ${res.statusCode} ${res.body}`);
  return res.json().case.id as string;
}

/** What the triage tests share: who is signed in, read when a test runs (set in its beforeAll). */
interface TriageScene {
  t: TestApp;
  steward: TestSovereign;
  stranger: TestSovereign;
}

/**
 * The triage door, the public text a held body or a steward note could reach, steward receipts,
 * and held imprints to decide on.
 */
export function triageKit(scene: () => TriageScene) {
  const triage = (
    payload: Record<string, unknown>,
    cookie = scene().steward.cookie,
    headers: Record<string, string> = {},
  ) =>
    scene().t.app.inject({
      method: 'POST',
      url: '/sovereign/triage',
      headers: { ...jsonHeaders(cookie), ...headers },
      payload,
    });

  /** Every public surface a held body or a steward note could reach, as text. */
  async function publicText(extra: string[] = []): Promise<string> {
    const { t, stranger } = scene();
    const urls = [
      '/imprint',
      '/imprint/live',
      '/imprint/feed.json',
      '/collaborate/feed.json',
      '/api/quarantine',
      '/api/transparency',
      '/api/stats',
      '/api/hive/lessons',
      ...extra,
    ];
    const parts: string[] = [];
    for (const url of urls) {
      for (const cookie of [undefined, stranger.cookie]) {
        const res = await t.app.inject({ method: 'GET', url, headers: jsonHeaders(cookie) });
        parts.push(`${url} ${res.statusCode} ${JSON.stringify(res.headers)} ${res.body}`);
      }
    }
    return parts.join('\n');
  }

  /** A held imprint through the real gate (a known spam pattern), from an open agent handle (unattested). */
  const run = randomBytes(4).toString('hex');
  let counter = 0;
  async function held(): Promise<{ sequence: number; marker: string }> {
    const marker = `heldmark${run}n${++counter}`;
    const { sequence } = await heldAgentImprint(scene().t.app, `spam-${run}-${counter}`, marker);
    return { sequence, marker };
  }

  const receiptsFor = (sequence: number) =>
    scene().t.database.db.query<{ id: string; step: string }>(
      "select id, step from receipts where subject = $1 and step like 'steward.%' order by id",
      [`imprint:${sequence}`],
    );

  return { triage, publicText, receiptsFor, held };
}
