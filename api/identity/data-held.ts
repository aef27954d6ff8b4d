import { Refusal } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { one, type Counts } from '../db/rows.ts';
import { PERSONAL_DATA } from '../personal-data.ts';
import type { DataSubject } from '../personal-data-contract.ts';
import type { SignedIn } from '../plugins/session.ts';
import { sovereignRow } from './service.ts';
import { listDataRequests } from './data-requests.ts';
import { iso } from '../../shared/time.ts';
import { sql as fragment } from 'kysely';

/**
 * What is held about a person (DESIGN.md section 5, identity): the `/settings/data` overview of
 * categories and counts, and the export bundle a completed export request downloads. Both are read
 * from every family's personal-data declaration (api/personal-data.ts), so a family cannot be left
 * out; the bundle is built when it is downloaded (no second copy of personal data is kept). Filing
 * and processing the requests is in data-rights.ts.
 */

/** `/settings/data`: what is held about the person (categories and counts) and their requests. */
export async function dataOverview(ctx: AppContext, signedIn: SignedIn) {
  const row = await sovereignRow(ctx.db, signedIn.sovereignId);
  if (!row) throw new Refusal('identity_required');
  const counts = one(
    await ctx.db.query<Counts<'sessions' | 'sessions_active' | 'imprints' | 'imprint_bodies' | 'receipts'>>(
      `select (select count(*) from sessions where sovereign_id = $1) as sessions,
            (select count(*) from sessions where sovereign_id = $1 and revoked_at is null and expires_at > $3) as sessions_active,
            (select count(*) from imprints where author_kind = 'sovereign' and author_ref = $1::text) as imprints,
            (select count(*) from imprints where author_kind = 'sovereign' and author_ref = $1::text and body is not null) as imprint_bodies,
            (select count(*) from receipts where subject = $2) as receipts`,
      [row.id, `sovereign:${row.tag}`, ctx.clock.now().toISOString()],
    ),
  );
  return {
    ok: true as const,
    schema: 'civitas.personal-data.v1' as const,
    tag: row.tag,
    held: [
      {
        category: 'identity',
        what: 'Your public tag, the time you crossed, and the time you were last seen.',
        present: true,
      },
      {
        category: 'callsign',
        what: 'The callsign you chose and whether it is shown publicly.',
        present: row.callsign !== null,
      },
      {
        category: 'sovereign_key',
        what: 'A one-way hash of your Sovereign Key (the key itself is never stored).',
        present: row.key_hash !== null,
      },
      {
        category: 'provider_identity',
        what: 'The identity provider and subject you signed in with.',
        present: row.idp_subject !== null,
      },
      {
        category: 'email',
        what: 'Your email address (verified or waiting for verification).',
        present: row.email !== null || row.email_pending !== null,
      },
      {
        category: 'sessions',
        what: 'When each sign-in session started, was last used, and ends (the session value is stored hashed).',
        present: counts.sessions > 0,
        count: counts.sessions,
        active: counts.sessions_active,
      },
      {
        category: 'imprints',
        what: 'The imprints you left in the Record (bodies only while they are inside the 500-row window).',
        present: counts.imprints > 0,
        count: counts.imprints,
        bodies: counts.imprint_bodies,
      },
      {
        category: 'receipts',
        what: 'Receipts of steps about you, named by your public tag.',
        present: counts.receipts > 0,
        count: counts.receipts,
      },
      ...(await familySections(ctx.db, { id: row.id, tag: row.tag, ref: `sovereign:${row.tag}` })),
    ],
    requests: await listDataRequests(ctx.db, row.id),
    actions: {
      file: { method: 'POST', href: '/settings/data/request', fields: { kind: ['export', 'erasure'] } },
      list: { method: 'GET', href: '/settings/data/request' },
    },
    erasure_means:
      'Erasure removes your callsign, email, key, provider link, sessions and everything you wrote (imprint bodies, feedback, pledge and pact text, order text, stance and juror reasons, inscriptions), and unlinks what stays from your tag: cosigns, signatures, pledges, stakes and seconds stay counted as anonymous acts, payment records stay on the books without your name. Receipts that named you show the subject as redacted, and their proofs still verify.',
  };
}

/** Categories listed above by identity and the Record themselves. */
const OVERVIEW_OWN = new Set(['sovereign', 'sessions', 'imprints', 'data_requests']);

/** What every other family declares it holds about the person, as overview rows (counts; the items are in the export). */
async function familySections(sql: Sql, subject: DataSubject) {
  const rows: { category: string; what: string; present: boolean; count: number }[] = [];
  for (const family of PERSONAL_DATA) {
    for (const [section, items] of Object.entries(await family.export(sql, subject))) {
      if (OVERVIEW_OWN.has(section) || !Array.isArray(items)) continue;
      rows.push({
        category: section,
        what: `Your ${section.replaceAll('_', ' ')} (${family.family}); every item is in your export.`,
        present: items.length > 0,
        count: items.length,
      });
    }
  }
  return rows;
}

/**
 * The export bundle: everything held about the person, in one JSON document, built from every
 * family's personal-data declaration (api/personal-data.ts). Secrets are represented by the fact
 * that they exist, never by their hashes.
 */
export async function exportBundle(ctx: AppContext, signedIn: SignedIn, requestId: string) {
  const [request] = await ctx.db.kysely
    .selectFrom('data_requests')
    .select(['id', 'kind', 'status'])
    .where('id', '=', requestId)
    .where('sovereign_id', '=', signedIn.sovereignId)
    .execute();
  if (!request || request.kind !== 'export')
    throw new Refusal(
      'not_found',
      { request_id: requestId.slice(0, 40) },
      'You have no export request with that id.',
    );
  if (request.status !== 'completed')
    throw new Refusal(
      'conflict',
      { status: request.status },
      'This export has not been processed by a steward yet.',
    );
  return buildBundle(ctx.db, signedIn.sovereignId, ctx.clock.now(), signedIn.sessionHash, requestId);
}

export async function buildBundle(
  sql: Sql,
  sovereignId: string,
  now: Date,
  currentSessionHash?: string,
  requestId?: string,
) {
  const row = await sovereignRow(sql, sovereignId);
  if (!row) throw new Refusal('not_found');
  const subject: DataSubject = {
    id: row.id,
    tag: row.tag,
    ref: `sovereign:${row.tag}`,
    sessionHash: currentSessionHash,
  };
  // Every family's declared sections, in declaration order: a family with personal data cannot be left out.
  const sections: Record<string, unknown> = {};
  const receiptIds: string[] = [];
  for (const family of PERSONAL_DATA) {
    Object.assign(sections, await family.export(sql, subject));
    if (family.receiptIds) receiptIds.push(...(await family.receiptIds(sql, subject)));
  }
  const receipts = await sql.kysely
    .selectFrom('receipts')
    .select(['id', 'step', 'subject', 'recorded_at', 'leaf_hash', 'log_date', 'leaf_index'])
    .where((eb) =>
      eb.or([
        eb('subject', '=', subject.ref),
        eb('id', '=', eb.fn.any(fragment<string[]>`${receiptIds}::text[]`)),
      ]),
    )
    .orderBy('recorded_at')
    .orderBy('id')
    .execute();
  return {
    schema: 'civitas.personal-data-export.v1',
    generated_at: now.toISOString(),
    request_id: requestId ?? null,
    ...sections,
    receipts: receipts.map((r) => ({
      id: r.id,
      step: r.step,
      subject: r.subject ?? 'redacted',
      recorded_at: iso(r.recorded_at),
      leaf_hash: r.leaf_hash,
      log: { date: String(r.log_date).slice(0, 10), leaf_index: r.leaf_index },
    })),
  };
}
