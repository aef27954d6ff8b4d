import { randomUUID } from 'node:crypto';
import { newId } from '../ids.ts';
import { Refusal } from '../../shared/errors.ts';
import { projectActorRef } from '../../shared/boundaries/projectors/actors.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { PERSONAL_DATA } from '../personal-data.ts';
import { ERASED_TAG, type DataSubject, type ErasureSubject } from '../personal-data-contract.ts';
import type { SignedIn } from '../plugins/session.ts';
import { sovereignRow } from './service.ts';
import { listDataRequests } from './data-requests.ts';
import { iso } from '../../shared/time.ts';
import { one, type Counts, type RowOf } from '../db/rows.ts';
import type { DataRequest, Sovereign } from './entities.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../db/kysely.ts';

/**
 * Data rights (DESIGN.md section 5, identity): a person files an export or an erasure request;
 * a steward processes it. An export is a JSON bundle of everything held about the person,
 * generated when it is downloaded (no second copy of personal data is kept). An erasure removes
 * personal data and bodies, keeps counts and receipts, and redacts the receipts' subjects.
 */

export type DataRequestKind = 'export' | 'erasure';

export async function fileDataRequest(ctx: AppContext, signedIn: SignedIn, kind: DataRequestKind) {
  const id = newId('dr', ctx.clock.now());
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // One open request per kind: a repeated form post does not queue the same work twice.
    const [open] = await tx.kysely
      .selectFrom('data_requests')
      .select('id')
      .where('sovereign_id', '=', signedIn.sovereignId)
      .where('kind', '=', kind)
      .where('status', '=', constant('pending'))
      .forUpdate()
      .execute();
    if (open) {
      throw new Refusal(
        'conflict',
        { request_id: open.id },
        `You already have a pending ${kind} request; a steward will process it.`,
      );
    }
    const receipt = await recordReceipt(tx, {
      step: `identity.data_request.${kind}`,
      subject: `data_request:${id}`,
      at: now,
    });
    await tx.query(
      `insert into data_requests (id, sovereign_id, kind, status, created_at, receipt_id) values ($1, $2, $3, 'pending', $4, $5)
       on conflict do nothing`,
      [id, signedIn.sovereignId, kind, now.toISOString(), receipt.id],
    );
    const [stored] = await tx.kysely.selectFrom('data_requests').select('id').where('id', '=', id).execute();
    if (!stored)
      throw new Refusal(
        'conflict',
        {},
        `You already have a pending ${kind} request; a steward will process it.`,
      );
    return {
      ok: true as const,
      request: {
        id,
        kind,
        status: 'pending' as const,
        created_at: now.toISOString(),
        receipt_id: receipt.id,
      },
    };
  });
}

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

/**
 * Erasure, inside the steward's transaction (docs/identity.md, "Personal data"). An anonymous
 * member is made first — a fresh id no tag or key derives from, nothing personal, the same crossing
 * time — and every family's declaration then erases the person's words and moves what it keeps
 * (counted acts, payment records) onto that member; identity runs last and deletes the person's
 * sessions and row. Receipts stay, their subject redacted through the ledger's salted commitment,
 * so every proof still verifies.
 */
export async function eraseSovereign(
  tx: Sql,
  sovereignId: string,
  now: Date,
): Promise<{ receipts_redacted: number; imprints_cleared: number; rows: Record<string, number> }> {
  const [row] = await tx.kysely
    .selectFrom('sovereigns')
    .select(['tag', 'created_at'])
    .where('id', '=', sovereignId)
    .forUpdate()
    .execute();
  if (!row) throw new Refusal('not_found');
  const anonymousId = randomUUID();
  await tx.query(
    'insert into sovereigns (id, tag, callsign_visible, created_at, erased_at) values ($1, $2, false, $3, $4)',
    [anonymousId, ERASED_TAG, iso(row.created_at), now.toISOString()],
  );
  const subject: ErasureSubject = { id: sovereignId, tag: row.tag, ref: `sovereign:${row.tag}`, anonymousId };
  const rows: Record<string, number> = {};
  for (const family of PERSONAL_DATA) Object.assign(rows, await family.erase(tx, subject, now));
  return { receipts_redacted: rows.receipts ?? 0, imprints_cleared: rows.imprints ?? 0, rows };
}

export interface StewardQueueEntry {
  id: string;
  kind: DataRequestKind;
  status: string;
  requester: string;
  created_at: string;
  processed_at: string | null;
  processed_by: string | null;
  note: string | null;
  receipt_id: string;
}

/** `/steward/data-requests`: pending requests first (oldest first), then the latest processed. */
export async function stewardQueue(ctx: AppContext) {
  // Raw: two ordered, limited branches in one union (Kysely does not parenthesize union branches).
  const rows = await ctx.db.query<
    Pick<
      RowOf<typeof DataRequest>,
      'id' | 'kind' | 'status' | 'created_at' | 'processed_at' | 'processed_by' | 'note' | 'receipt_id'
    > &
      Pick<RowOf<typeof Sovereign>, 'tag' | 'erased_at'>
  >(
    `(select r.id, r.kind, r.status, s.tag, s.erased_at, r.created_at, r.processed_at, r.processed_by, r.note, r.receipt_id
        from data_requests r join sovereigns s on s.id = r.sovereign_id where r.status = 'pending' order by r.created_at asc limit 200)
     union all
     (select r.id, r.kind, r.status, s.tag, s.erased_at, r.created_at, r.processed_at, r.processed_by, r.note, r.receipt_id
        from data_requests r join sovereigns s on s.id = r.sovereign_id where r.status <> 'pending' order by r.processed_at desc limit 50)`,
  );
  const entries = rows.map((r): StewardQueueEntry => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    requester: r.erased_at
      ? 'redacted'
      : projectActorRef({ actor_id: '', kind: 'sovereign', tag: r.tag }).ref,
    created_at: iso(r.created_at)!,
    processed_at: iso(r.processed_at),
    processed_by: r.processed_by,
    note: r.note,
    receipt_id: r.receipt_id,
  }));
  return {
    ok: true as const,
    schema: 'civitas.data-requests.v1' as const,
    pending: entries.filter((e) => e.status === 'pending'),
    processed: entries.filter((e) => e.status !== 'pending'),
    actions: {
      process: {
        method: 'POST',
        href: '/steward/data-requests',
        fields: { id: 'dr_…', action: ['complete', 'decline'], note: 'optional, shown to the requester' },
      },
    },
  };
}

/** A steward completes or declines one pending request. Completing an erasure erases, in the same transaction. */
export async function processDataRequest(
  ctx: AppContext,
  steward: SignedIn,
  input: { id: string; action: 'complete' | 'decline'; note?: string | null },
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [request] = await tx.kysely
      .selectFrom('data_requests')
      .select(['id', 'kind', 'status', 'sovereign_id'])
      .where('id', '=', input.id)
      .forUpdate()
      .execute();
    if (!request)
      throw new Refusal('not_found', { request_id: input.id.slice(0, 40) }, 'No data request has that id.');
    if (request.status !== 'pending')
      throw new Refusal('conflict', { status: request.status }, 'This request was already processed.');
    let erased: { receipts_redacted: number; imprints_cleared: number } | undefined;
    if (input.action === 'complete' && request.kind === 'erasure')
      erased = await eraseSovereign(tx, request.sovereign_id, now);
    const status = input.action === 'complete' ? 'completed' : 'declined';
    await tx.query(
      'update data_requests set status = $2, processed_at = $3, processed_by = $4, note = $5 where id = $1',
      [request.id, status, now.toISOString(), `sovereign:${steward.tag}`, input.note ?? null],
    );
    const receipt = await recordReceipt(tx, {
      step: `identity.data_request.${status}`,
      subject: `data_request:${request.id}`,
      at: now,
    });
    return {
      ok: true as const,
      request: { id: request.id, kind: request.kind, status },
      erased: erased ?? null,
      receipt_id: receipt.id,
    };
  });
}
