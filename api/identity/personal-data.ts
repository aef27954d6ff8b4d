import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { touched } from '../personal-data-contract.ts';
import { sovereignRow } from './service.ts';
import { listDataRequests } from './data-requests.ts';
import { iso } from '../../shared/time.ts';

/**
 * Identity: the person's own row, their sessions and sign-ins, and their data requests. Erasure
 * retires the row: every family first moves what it keeps to the anonymous member (a fresh row
 * with a fresh id, no tag, no key, no callsign, the same crossing time so counts by date hold),
 * then this declaration deletes the person's sessions and their row. Nothing left derives from
 * the old id, and the old tag names no one.
 */
export const identityPersonalData: FamilyDeclaration = {
  family: 'identity',
  tables: [
    {
      table: 'sovereigns',
      personal: {
        id: 'the raw sovereign id',
        tag: 'the public tag',
        callsign: 'the chosen callsign',
        key_hash: 'a one-way hash of the Sovereign Key',
        email: 'the verified email',
        email_pending: 'an email waiting for verification',
        email_token_hash: 'the email verification code (hashed)',
        idp_issuer: 'the identity provider signed in with',
        idp_subject: 'the subject at the identity provider',
        due_token_hash: 'the due-feed token (hashed)',
      },
      impersonal: [],
      disposition: 'erase',
      why: "The person's row is deleted; an anonymous member (fresh id, no tag, nothing personal, same crossing time) keeps the count and holds the kept acts.",
    },
    {
      table: 'sessions',
      personal: { id_hash: 'a session (hashed)', sovereign_id: "the holder's raw id" },
      impersonal: [],
      holder: { column: 'sovereign_id' },
      disposition: 'erase',
      why: 'Deleted.',
    },
    {
      table: 'form_flashes',
      personal: {
        payload: 'what was typed into a browser form that failed, kept so the page can show it again',
      },
      impersonal: ['id'],
      notExported: 'linked to no person (a browser cookie names it), read once and gone within ten minutes',
      disposition: 'erase',
      why: 'Deleted when its page reads it, or swept after ten minutes; fields named like secrets are never stored.',
    },
    {
      table: 'oidc_logins',
      personal: { link_sovereign_id: 'the signed-in sovereign linking a provider' },
      impersonal: ['state_hash', 'code_verifier', 'nonce', 'return_to'],
      holder: { column: 'link_sovereign_id' },
      notExported: 'ten-minute sign-in attempts; secrets of the flow',
      disposition: 'erase',
      why: 'Pending provider links of the person are deleted.',
    },
    {
      table: 'data_requests',
      personal: {
        sovereign_id: "the requester's raw id",
        processed_by: "the processing steward's public ref",
        note: "the steward's note to the requester",
      },
      impersonal: ['id', 'kind', 'status', 'receipt_id'],
      holder: {
        column: 'sovereign_id',
        unique: { columns: ['kind'], where: (row) => `${row}.status = 'pending'` },
      },
      disposition: 'keep',
      keptWords: ['note'],
      why: 'Kept: the record that the right was exercised and answered; the requester becomes the anonymous member, an erased steward becomes "redacted".',
    },
  ],
  async export(sql, subject) {
    const row = await sovereignRow(sql, subject.id);
    if (!row) return {};
    const sessions = await sql.kysely
      .selectFrom('sessions')
      .select(['id_hash', 'created_at', 'last_used_at', 'expires_at', 'revoked_at'])
      .where('sovereign_id', '=', subject.id)
      .orderBy('created_at')
      .execute();
    return {
      sovereign: {
        id: row.id,
        tag: row.tag,
        callsign: row.callsign,
        callsign_visible: row.callsign_visible,
        crossed_at: iso(row.created_at),
        last_seen_at: iso(row.last_seen_at),
        email: row.email,
        email_verified_at: iso(row.email_verified_at),
        email_pending: row.email_pending,
        sovereign_key: {
          held: row.key_hash !== null,
          note: 'Only a one-way hash of your key is stored; it is not included.',
        },
        provider_identity: row.idp_subject ? { issuer: row.idp_issuer, subject: row.idp_subject } : null,
        uniqueness_verified_at: iso(row.uniqueness_verified_at),
        due_feed_token: { set: row.due_token_hash !== null },
        erased_at: iso(row.erased_at),
      },
      sessions: sessions.map((s) => ({
        created_at: iso(s.created_at),
        last_used_at: iso(s.last_used_at),
        expires_at: iso(s.expires_at),
        revoked_at: iso(s.revoked_at),
        current: s.id_hash === subject.sessionHash,
      })),
      data_requests: await listDataRequests(sql, subject.id),
      data_requests_processed: await sql.kysely
        .selectFrom('data_requests')
        .select(['id', 'kind', 'status', 'processed_at', 'note', 'receipt_id'])
        .where('processed_by', '=', subject.ref)
        .orderBy('processed_at')
        .orderBy('id')
        .execute(),
    };
  },
  receiptIds: async (sql, subject) => (await listDataRequests(sql, subject.id)).map((r) => r.receipt_id),
  async erase(tx, subject) {
    return {
      sessions: await touched(tx, 'delete from sessions where sovereign_id = $1', [subject.id]),
      oidc_logins: await touched(tx, 'delete from oidc_logins where link_sovereign_id = $1', [subject.id]),
      data_requests: await touched(tx, 'update data_requests set sovereign_id = $2 where sovereign_id = $1', [
        subject.id,
        subject.anonymousId,
      ]),
      data_requests_processed: await touched(
        tx,
        `update data_requests set processed_by = 'redacted' where processed_by = $1`,
        [subject.ref],
      ),
      sovereigns: await touched(tx, 'delete from sovereigns where id = $1', [subject.id]),
    };
  },
};
