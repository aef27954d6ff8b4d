import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Refusal } from '../../shared/errors.ts';
import { passportView, type PassportView } from '../../shared/boundaries/address-pressure.ts';
import { projectWhisperReceipt, type WhisperReceipt } from '../../shared/boundaries/projectors/whispers.ts';
import { isPublicTag } from '../../shared/boundaries/actor-ref.ts';
import type { Scope } from '../../shared/registry/types.ts';
import type { IdentityView } from '../../shared/identity/contract.ts';
import type { AppContext } from '../context.ts';
import type { Sql } from '../db/database.ts';
import { matchesHash, sha256Hex } from '../agents/credentials.ts';
import { recordReceipt } from '../ledger/receipts.ts';
import { mailerFor } from '../mail/mailer.ts';
import type { SignedIn } from '../plugins/session.ts';
import { providerOff } from '../plugins/errors.ts';
import { iso } from '../../shared/time.ts';

/** A callsign: 1–40 letters, digits, spaces, dots, underscores or hyphens. Empty means none. */
export { callsignSchema } from '../../shared/identity/contract.ts';

/** A Sovereign Key as typed or pasted: surrounding whitespace is forgiven, the rest must match. */
export const keySchema = z
  .string()
  .trim()
  .min(1, 'Paste your Sovereign Key (it starts with sk_).')
  .max(200, 'A Sovereign Key is 46 characters long.');

const EMAIL_TOKEN_LIFETIME_MS = 24 * 3_600_000;

interface SovereignRow {
  id: string;
  tag: string;
  callsign: string | null;
  callsign_visible: boolean;
  key_hash: string | null;
  email: string | null;
  email_verified_at: Date | string | null;
  email_pending: string | null;
  created_at: Date | string;
  last_seen_at: Date | string | null;
  uniqueness_verified_at: Date | string | null;
  idp_issuer: string | null;
  idp_subject: string | null;
  due_token_hash: string | null;
  erased_at: Date | string | null;
}

export async function sovereignRow(sql: Sql, id: string): Promise<SovereignRow | undefined> {
  const [row] = await sql.query<SovereignRow>(
    `select id, tag, callsign, callsign_visible, key_hash, email, email_verified_at, email_pending, created_at, last_seen_at,
            uniqueness_verified_at, idp_issuer, idp_subject, due_token_hash, erased_at
       from sovereigns where id = $1`,
    [id],
  );
  return row;
}

/**
 * Sign-in with a saved Sovereign Key. The key is looked up by its SHA-256 (a unique column), then
 * compared in constant time; an erased sovereign has no key left to match.
 */
export async function sovereignByKey(ctx: AppContext, key: string): Promise<{ id: string; tag: string } | undefined> {
  if (!/^sk_[A-Za-z0-9_-]{43}$/.test(key)) return undefined;
  const [row] = await ctx.db.query<{ id: string; tag: string; key_hash: string }>(
    'select id, tag, key_hash from sovereigns where key_hash = $1 and erased_at is null',
    [sha256Hex(key)],
  );
  return row && matchesHash(key, row.key_hash) ? { id: row.id, tag: row.tag } : undefined;
}

/** Records a sign-in or sign-out step. Its subject names no one: a session log is not a tracker. */
export async function recordSessionStep(ctx: AppContext, step: 'identity.sign_in' | 'identity.sign_out' | 'identity.reconcile') {
  return ctx.db.transaction((tx) => recordReceipt(tx, { step, subject: 'session', at: ctx.clock.now() }));
}

// ---------------------------------------------------------------------------------------------
// Views

export type { IdentityView } from '../../shared/identity/contract.ts';

const WAYS_IN = (providerConfigured: boolean) => [
  { rel: 'begin', method: 'GET', href: '/begin', reason: 'Make a free first call: no account needed.' },
  { rel: 'cross', method: 'POST', href: '/initiate', reason: 'Cross into a new identity: you get a Sovereign Key, shown once.' },
  { rel: 'return', method: 'POST', href: '/return', reason: 'Come back with the Sovereign Key you saved.' },
  ...(providerConfigured
    ? [{ rel: 'provider', method: 'POST', href: '/auth/idp/login', reason: 'Sign in through the identity provider.' }]
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
    sign_in_methods: { key: row.key_hash !== null, provider: row.idp_subject !== null, provider_configured: providerConfigured },
    email: { set: row.email !== null, verified: row.email_verified_at !== null, pending: row.email_pending !== null },
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
    ctx.db.query<{ sequence: string | number; kind: string; body: string | null; created_at: string; unattested: boolean; held: boolean; receipt_id: string }>(
      `select sequence, kind, body, created_at, unattested, held, receipt_id from imprints
        where author_kind = 'sovereign' and author_ref = $1 order by sequence desc limit 50`,
      [row.id],
    ),
    ctx.db.query<{ total: string | number; retained: string | number }>(
      `select count(*) as total, count(*) filter (where body is not null) as retained from imprints
        where author_kind = 'sovereign' and author_ref = $1`,
      [row.id],
    ),
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
    joined_at: iso(row.created_at),
    scopes: signedIn.scopes,
    email: { address: row.email, verified: row.email_verified_at !== null, pending: row.email_pending },
    sign_in_methods: { key: row.key_hash !== null, provider: row.idp_subject !== null },
    imprints: {
      total: Number(counts[0]?.total ?? 0),
      retained: Number(counts[0]?.retained ?? 0),
      newest: imprints.map((imprint): OwnImprint => ({
        sequence: Number(imprint.sequence),
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

/**
 * Receipts whose subject is this tag, through the whisper_receipt projector (a steward's note never
 * leaves). Redacted receipts are not listed: their subject is no longer anyone's.
 */
export async function receiptsAbout(sql: Sql, tag: string, limit: number): Promise<WhisperReceipt[]> {
  const rows = await sql.query<{ id: string; step: string; subject: string; recorded_at: string; leaf_hash: string; log_date: string; leaf_index: number }>(
    `select id, step, subject, recorded_at, leaf_hash, log_date::text as log_date, leaf_index from receipts
      where subject = $1 order by recorded_at desc, id desc limit $2`,
    [`sovereign:${tag}`, limit],
  );
  return rows.map((r) =>
    projectWhisperReceipt({
      receipt_id: r.id,
      step: r.step,
      subject: { actor_id: '', kind: 'sovereign', tag },
      steward_id: '',
      steward_note: null,
      whisper_body: null,
      recorded_at: iso(r.recorded_at)!,
      leaf_hash: r.leaf_hash,
      log: { date: String(r.log_date).slice(0, 10), leaf_index: Number(r.leaf_index) },
    }),
  );
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
    throw new Refusal('invalid_request', { issues: [{ path: 'tag', message: 'A public tag is 4 hexadecimal characters, e.g. 3fa9.' }] });
  }
  const holders = await ctx.db.query<{ id: string; tag: string; callsign: string | null; callsign_visible: boolean; created_at: string }>(
    'select id, tag, callsign, callsign_visible, created_at from sovereigns where tag = $1 and erased_at is null limit 2',
    [address],
  );
  const view = passportView(
    address,
    holders.map((h) => ({ actor_id: h.id, kind: 'sovereign' as const, tag: h.tag, callsign: h.callsign, callsign_visible: h.callsign_visible, joined_at: iso(h.created_at)! })),
  );
  if (view.status !== 'addressable') return { ok: true, schema: 'civitas.passport.v1', ...view, standing: null, receipts: [] };
  const [counts] = await ctx.db.query<{ imprints: string | number; receipts: string | number }>(
    `select (select count(*) from imprints where author_kind = 'sovereign' and author_ref = $1 and held = false) as imprints,
            (select count(*) from receipts where subject = $2) as receipts`,
    [holders[0].id, `sovereign:${address}`],
  );
  return {
    ok: true,
    schema: 'civitas.passport.v1',
    ...view,
    standing: { imprints: Number(counts.imprints), receipts: Number(counts.receipts) },
    receipts: await receiptsAbout(ctx.db, address, 20),
  };
}

// ---------------------------------------------------------------------------------------------
// Owner settings

export async function setCallsignVisibility(ctx: AppContext, signedIn: SignedIn, visible: boolean, callsign?: string | null) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    if (callsign !== undefined) {
      await tx.query('update sovereigns set callsign = $2, callsign_visible = $3 where id = $1', [signedIn.sovereignId, callsign, visible && callsign !== null]);
    } else {
      await tx.query('update sovereigns set callsign_visible = $2 and callsign is not null where id = $1', [signedIn.sovereignId, visible]);
    }
    const [row] = await tx.query<{ callsign: string | null; callsign_visible: boolean }>('select callsign, callsign_visible from sovereigns where id = $1', [signedIn.sovereignId]);
    const receipt = await recordReceipt(tx, { step: 'identity.callsign_visibility', subject: `sovereign:${signedIn.tag}`, at: now });
    return { ok: true as const, callsign: row.callsign, callsign_visible: row.callsign_visible, receipt_id: receipt.id };
  });
}

export const emailSchema = z.string().trim().max(254, 'An email address is at most 254 characters.').email('That is not an email address.');

/**
 * Sets the email to verify: stored as pending with a one-time token (SHA-256 kept) and a message
 * sent through SMTP. The address becomes the email only when its token comes back signed in.
 */
export async function requestEmail(ctx: AppContext, signedIn: SignedIn, email: string) {
  const mailer = mailerFor(ctx.config);
  if (!mailer) {
    throw providerOff(new Refusal('provider_unavailable', {}, 'Mail is not configured in this environment, so an address cannot be verified here.'));
  }
  const token = randomBytes(24).toString('base64url');
  const now = ctx.clock.now();
  const link = `${ctx.config.origin}/sovereign?email_token=${token}`;
  // Send first: if the mail server refuses, nothing is stored and no receipt is recorded.
  await mailer.send({
    to: email,
    subject: 'Confirm your email for civitas',
    text: [
      'Someone (we hope you) asked civitas to send due reminders and receipts to this address.',
      '',
      `To confirm, open this link while signed in and press "Confirm": ${link}`,
      `Or paste this code on your owner page: ${token}`,
      '',
      'The link works for 24 hours. If this was not you, ignore this message: nothing changes.',
    ].join('\n'),
  });
  return ctx.db.transaction(async (tx) => {
    await tx.query(
      'update sovereigns set email_pending = $2, email_token_hash = $3, email_token_expires_at = $4 where id = $1',
      [signedIn.sovereignId, email, sha256Hex(token), new Date(now.getTime() + EMAIL_TOKEN_LIFETIME_MS).toISOString()],
    );
    const receipt = await recordReceipt(tx, { step: 'identity.email_requested', subject: `sovereign:${signedIn.tag}`, at: now });
    return { ok: true as const, status: 'verification_sent' as const, receipt_id: receipt.id };
  });
}

export async function verifyEmail(ctx: AppContext, signedIn: SignedIn, token: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.query<{ email_pending: string | null; email_token_hash: string | null; email_token_expires_at: string | null }>(
      'select email_pending, email_token_hash, email_token_expires_at from sovereigns where id = $1 for update',
      [signedIn.sovereignId],
    );
    const valid = row?.email_pending && matchesHash(token, row.email_token_hash) && row.email_token_expires_at && new Date(row.email_token_expires_at) > now;
    if (!valid) {
      throw new Refusal('invalid_request', { issues: [{ path: 'token', message: 'That confirmation code is not valid (or has expired). Ask for a new message.' }] });
    }
    await tx.query(
      `update sovereigns set email = email_pending, email_verified_at = $2, email_pending = null, email_token_hash = null, email_token_expires_at = null
        where id = $1`,
      [signedIn.sovereignId, now.toISOString()],
    );
    const receipt = await recordReceipt(tx, { step: 'identity.email_verified', subject: `sovereign:${signedIn.tag}`, at: now });
    return { ok: true as const, status: 'verified' as const, receipt_id: receipt.id };
  });
}

export async function removeEmail(ctx: AppContext, signedIn: SignedIn) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await tx.query(
      `update sovereigns set email = null, email_verified_at = null, email_pending = null, email_token_hash = null, email_token_expires_at = null
        where id = $1`,
      [signedIn.sovereignId],
    );
    const receipt = await recordReceipt(tx, { step: 'identity.email_removed', subject: `sovereign:${signedIn.tag}`, at: now });
    return { ok: true as const, status: 'removed' as const, receipt_id: receipt.id };
  });
}

// ---------------------------------------------------------------------------------------------
// First free call

/**
 * `/begin/receipt/{token}`: the receipt of a first free call, by its id. Any recorded step can be
 * shared this way; the projection is the public receipt (no note, no raw id).
 */
export async function beginReceipt(ctx: AppContext, token: string) {
  if (!/^rcpt_[0-9A-HJKMNP-TV-Z]{26}$/.test(token)) {
    throw new Refusal('not_found', { token: token.slice(0, 40) }, 'A first-call receipt token is a receipt id such as rcpt_01J…; check the link you were given.');
  }
  const [row] = await ctx.db.query<{ id: string; step: string; subject: string | null; recorded_at: string; leaf_hash: string; log_date: string; leaf_index: number }>(
    'select id, step, subject, recorded_at, leaf_hash, log_date::text as log_date, leaf_index from receipts where id = $1',
    [token],
  );
  if (!row) throw new Refusal('not_found', { token }, 'No receipt is recorded under that token.');
  const subjectTag = row.subject ? /^sovereign:([0-9a-f]{4})$/.exec(row.subject)?.[1] : undefined;
  const receipt = projectWhisperReceipt({
    receipt_id: row.id,
    step: row.step,
    subject: subjectTag ? { actor_id: '', kind: 'sovereign', tag: subjectTag } : { actor_id: '', kind: 'agent', handle: null },
    steward_id: '',
    steward_note: null,
    whisper_body: null,
    recorded_at: iso(row.recorded_at)!,
    leaf_hash: row.leaf_hash,
    log: { date: String(row.log_date).slice(0, 10), leaf_index: Number(row.leaf_index) },
  });
  // Subjects that are not a sovereign (imprint:42, agent:nova, session) are already public refs.
  if (!subjectTag) receipt.subject = row.subject && /^[a-z_]+(:[A-Za-z0-9._-]{1,64})?$/.test(row.subject) ? row.subject : 'redacted';
  return {
    ok: true as const,
    schema: 'civitas.first-call-receipt.v1' as const,
    token: row.id,
    receipt,
    proof: { verify: `/verify/${row.id}`, inclusion: `/verify/inclusion/${receipt.log.date}/${row.id}`, card: `/begin/receipt/${row.id}/card.svg` },
    note: 'This receipt proves the step was recorded. It does not prove that a requested change was applied.',
  };
}

// ---------------------------------------------------------------------------------------------
// Data requests (listed here so the owner view and /settings/data share one projection)

export interface DataRequestView {
  id: string;
  kind: 'export' | 'erasure';
  status: 'pending' | 'completed' | 'declined';
  created_at: string;
  processed_at: string | null;
  note: string | null;
  receipt_id: string;
  download: string | null;
}

export async function listDataRequests(sql: Sql, sovereignId: string): Promise<DataRequestView[]> {
  const rows = await sql.query<{ id: string; kind: 'export' | 'erasure'; status: 'pending' | 'completed' | 'declined'; created_at: string; processed_at: string | null; note: string | null; receipt_id: string }>(
    'select id, kind, status, created_at, processed_at, note, receipt_id from data_requests where sovereign_id = $1 order by created_at desc, id desc limit 100',
    [sovereignId],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    created_at: iso(r.created_at)!,
    processed_at: iso(r.processed_at),
    note: r.note,
    receipt_id: r.receipt_id,
    download: r.kind === 'export' && r.status === 'completed' ? `/settings/data/request?download=${r.id}` : null,
  }));
}
