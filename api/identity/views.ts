/**
 * What a sovereign sees: the identity view (ways in, signed in or not), the owner view (/sovereign)
 * and the public passport by tag.
 */
import { Refusal } from '../../shared/errors.ts';
import { passportView, type PassportView } from '../../shared/boundaries/address-pressure.ts';
import { projectWhisperReceipt, type WhisperReceipt } from '../../shared/boundaries/projectors/whispers.ts';
import { isPublicTag } from '../../shared/boundaries/actor-ref.ts';
import type { IdentityView } from '../../shared/identity/contract.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import type { SignedIn } from '../plugins/session.ts';
import { listDataRequests } from './data-requests.ts';
import { sovereignRow } from './service.ts';
import { iso } from '../../shared/time.ts';
import { one } from '../db/rows.ts';
import { constant, type Row } from '../db/kysely.ts';
import { sql } from 'kysely';

export type { IdentityView } from '../../shared/identity/contract.ts';

const WAYS_IN = (providerConfigured: boolean) => [
  { rel: 'begin', method: 'GET', href: '/begin', reason: 'Make a free first call: no account needed.' },
  {
    rel: 'cross',
    method: 'POST',
    href: '/initiate',
    reason: 'Cross into a new identity: you get a Sovereign Key, shown once.',
  },
  { rel: 'return', method: 'POST', href: '/return', reason: 'Come back with the Sovereign Key you saved.' },
  ...(providerConfigured
    ? [
        {
          rel: 'provider',
          method: 'POST',
          href: '/auth/idp/login',
          reason: 'Sign in through the identity provider.',
        },
      ]
    : []),
];

/** `/identity`: who the current session is, how it can sign in, and what it may do. */
export async function identityView(ctx: AppContext, signedIn: SignedIn | undefined): Promise<IdentityView> {
  const providerConfigured = Boolean(ctx.config.idp);
  const row = signedIn ? await sovereignRow(ctx.db, signedIn.sovereignId) : undefined;
  if (!signedIn || !row) {
    return {
      ok: true,
      schema: 'civitas.identity.v1',
      signed_in: false,
      tag: null,
      ref: null,
      callsign: null,
      callsign_visible: false,
      scopes: [],
      sign_in_methods: { key: false, provider: false, provider_configured: providerConfigured },
      email: { set: false, verified: false, pending: false },
      governance: { uniqueness_verified: false },
      ways_in: WAYS_IN(providerConfigured),
    };
  }
  return {
    ok: true,
    schema: 'civitas.identity.v1',
    signed_in: true,
    tag: row.tag,
    ref: `sovereign:${row.tag}`,
    callsign: row.callsign,
    callsign_visible: row.callsign_visible,
    scopes: signedIn.scopes,
    sign_in_methods: {
      key: row.key_hash !== null,
      provider: row.idp_subject !== null,
      provider_configured: providerConfigured,
    },
    email: {
      set: row.email !== null,
      verified: row.email_verified_at !== null,
      pending: row.email_pending !== null,
    },
    governance: { uniqueness_verified: row.uniqueness_verified_at !== null },
    ways_in: [],
  };
}

export interface OwnImprint {
  sequence: number;
  kind: string;
  body: string | null;
  retained: boolean;
  recorded_at: string;
  unattested: boolean;
  held: boolean;
  receipt_id: string;
}

/** `/sovereign`: the owner's own view. Personal: served `private, no-store`, never to anyone else. */
export async function ownerView(ctx: AppContext, signedIn: SignedIn) {
  const row = await sovereignRow(ctx.db, signedIn.sovereignId);
  if (!row) throw new Refusal('identity_required');
  const [imprints, counts, requests, receipts] = await Promise.all([
    ctx.db.kysely
      .selectFrom('imprints')
      .select(['sequence', 'kind', 'body', 'created_at', 'unattested', 'held', 'receipt_id'])
      .where('author_kind', '=', constant('sovereign'))
      .where('author_ref', '=', row.id)
      .orderBy('sequence', 'desc')
      .limit(constant(50))
      .execute(),
    ctx.db.kysely
      .selectFrom('imprints')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        sql<number>`count(*) filter (where body is not null)`.as('retained'),
      ])
      .where('author_kind', '=', constant('sovereign'))
      .where('author_ref', '=', row.id)
      .execute(),
    listDataRequests(ctx.db, row.id),
    receiptsAbout(ctx.db, row.tag, 20),
  ]);
  return {
    ok: true as const,
    schema: 'civitas.sovereign.v1' as const,
    tag: row.tag,
    ref: `sovereign:${row.tag}`,
    callsign: row.callsign,
    callsign_visible: row.callsign_visible,
    joined_at: iso(row.created_at)!,
    scopes: signedIn.scopes,
    email: { address: row.email, verified: row.email_verified_at !== null, pending: row.email_pending },
    sign_in_methods: { key: row.key_hash !== null, provider: row.idp_subject !== null },
    imprints: {
      total: counts[0]?.total ?? 0,
      retained: counts[0]?.retained ?? 0,
      newest: imprints.map((imprint): OwnImprint => ({
        sequence: imprint.sequence,
        kind: imprint.kind,
        body: imprint.body,
        retained: imprint.body !== null,
        recorded_at: iso(imprint.created_at)!,
        unattested: imprint.unattested,
        held: imprint.held,
        receipt_id: imprint.receipt_id,
      })),
    },
    receipts,
    data_requests: requests,
    due: { ics: '/sovereign/due.ics', atom: '/sovereign/due.xml', token_set: row.due_token_hash !== null },
    links: { passport: `/passport?tag=${row.tag}`, identity: '/identity', data: '/settings/data' },
  };
}

/** A receipt row as the public receipt views read it (RECEIPT_COLUMNS). */
export type ReceiptRow = Pick<
  Row<'receipts'>,
  'id' | 'step' | 'subject' | 'recorded_at' | 'leaf_hash' | 'log_date' | 'leaf_index'
>;
export const RECEIPT_COLUMNS =
  'id, step, subject, recorded_at, leaf_hash, log_date::text as log_date, leaf_index';

/** A receipt row as the public receipt: through the whisper_receipt projector, with no steward, note or raw id. */
export function publicReceipt(
  row: ReceiptRow,
  subject: Parameters<typeof projectWhisperReceipt>[0]['subject'],
): WhisperReceipt {
  return projectWhisperReceipt({
    receipt_id: row.id,
    step: row.step,
    subject,
    steward_id: '',
    steward_note: null,
    whisper_body: null,
    recorded_at: iso(row.recorded_at)!,
    leaf_hash: row.leaf_hash,
    log: { date: String(row.log_date).slice(0, 10), leaf_index: row.leaf_index },
  });
}

/**
 * Receipts whose subject is this tag, through the whisper_receipt projector (a steward's note never
 * leaves). Redacted receipts are not listed: their subject is no longer anyone's.
 */
export async function receiptsAbout(sql: Sql, tag: string, limit: number): Promise<WhisperReceipt[]> {
  const rows = await sql.query<ReceiptRow>(
    `select ${RECEIPT_COLUMNS} from receipts where subject = $1 order by recorded_at desc, id desc limit $2`,
    [`sovereign:${tag}`, limit],
  );
  return rows.map((row) => publicReceipt(row, { actor_id: '', kind: 'sovereign', tag }));
}

export interface PassportProjection extends PassportView {
  ok: true;
  schema: 'civitas.passport.v1';
  standing: { imprints: number; receipts: number } | null;
  receipts: WhisperReceipt[];
}

/**
 * `/passport?tag=`: the public face of one tag. A tag held by more than one sovereign is
 * unaddressable (no holder, no count, no receipts), through the identity_addressing projector.
 */
export async function passport(ctx: AppContext, tag: unknown): Promise<PassportProjection> {
  const address = typeof tag === 'string' ? tag.trim().toLowerCase() : '';
  if (!isPublicTag(address)) {
    throw new Refusal('invalid_request', {
      issues: [{ path: 'tag', message: 'A public tag is 4 hexadecimal characters, e.g. 3fa9.' }],
    });
  }
  const holders = await ctx.db.kysely
    .selectFrom('sovereigns')
    .select(['id', 'tag', 'callsign', 'callsign_visible', 'created_at'])
    .where('tag', '=', address)
    .where('erased_at', 'is', null)
    .limit(constant(2))
    .execute();
  const view = passportView(
    address,
    holders.map((h) => ({
      actor_id: h.id,
      kind: 'sovereign' as const,
      tag: h.tag,
      callsign: h.callsign,
      callsign_visible: h.callsign_visible,
      joined_at: iso(h.created_at)!,
    })),
  );
  if (view.status !== 'addressable')
    return { ok: true, schema: 'civitas.passport.v1', ...view, standing: null, receipts: [] };
  const holder = one(holders); // addressable: exactly one holder
  const counts = one(
    await ctx.db.kysely
      .selectNoFrom((eb) => [
        eb
          .selectFrom('imprints')
          .select(eb.fn.countAll<number>().as('n'))
          .where('author_kind', '=', constant('sovereign'))
          .where('author_ref', '=', holder.id)
          .where('held', '=', constant(false))
          .as('imprints'),
        eb
          .selectFrom('receipts')
          .select(eb.fn.countAll<number>().as('n'))
          .where('subject', '=', `sovereign:${address}`)
          .as('receipts'),
      ])
      .execute(),
  );
  return {
    ok: true,
    schema: 'civitas.passport.v1',
    ...view,
    standing: { imprints: counts.imprints ?? 0, receipts: counts.receipts ?? 0 },
    receipts: await receiptsAbout(ctx.db, address, 20),
  };
}
