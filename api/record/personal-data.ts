import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { receiptIdsOf, touched } from '../personal-data-contract.ts';
import { iso } from '../../shared/time.ts';
import { constant } from '../db/kysely.ts';

/** The Record's personal data: imprints a person left, imprints they reported, feedback they sent. */
export const recordPersonalData: FamilyDeclaration = {
  family: 'record',
  tables: [
    {
      table: 'imprints',
      personal: {
        author_ref: "the author's raw id",
        public_author: "the author's public ref",
        body: 'the words of the imprint',
        search: 'the words of the body, indexed',
        search_english: 'the words of the body, stemmed and indexed for search',
      },
      impersonal: ['kind', 'author_kind', 'held_reason', 'receipt_id'],
      holder: { column: 'author_ref', kind: 'author_kind', publicTag: 'public_author' },
      disposition: 'erase',
      why: 'Bodies deleted (those made with a session, and sessionless ones made under the tag); the row stays unattributed (author "erased", public author "redacted") so sequence numbers and counts hold.',
    },
    {
      table: 'imprint_reports',
      personal: { reporter_ref: "the reporter's raw id or handle", detail: "the reporter's words" },
      impersonal: ['id', 'reason', 'reporter_kind', 'status', 'receipt_id', 'closed_by_action'],
      holder: { column: 'reporter_ref', kind: 'reporter_kind' },
      disposition: 'erase',
      why: 'Detail deleted and reporter unlinked; the report stays for the steward triage it led to.',
    },
    {
      table: 'feedback',
      personal: { reporter_ref: "the reporter's raw id or handle", body: "the reporter's words" },
      impersonal: ['id', 'topic', 'reporter_kind', 'status', 'receipt_id'],
      holder: { column: 'reporter_ref', kind: 'reporter_kind' },
      disposition: 'erase',
      why: 'Body deleted and reporter unlinked; the count of feedback stays.',
    },
    {
      table: 'record_counter',
      personal: {},
      impersonal: [],
      disposition: 'erase',
      why: 'A counter; nothing personal.',
    },
    {
      table: 'record_tallies',
      personal: {},
      impersonal: ['name'],
      disposition: 'erase',
      why: 'Counts kept by the database (how many sovereigns, agents, held imprints); the name of a count, never of a person.',
    },
    {
      table: 'address_holders',
      personal: { address: 'a public tag (lower-cased) that at least one live sovereign holds' },
      impersonal: [],
      notExported:
        'a count per public tag for the boundary census, kept by the database; the tag is in the sovereign section',
      disposition: 'erase',
      why: "Kept by the database from sovereigns: an erasure takes the person out of their tag's count at once, and a tag no one holds has no row.",
    },
    {
      table: 'imprint_hours',
      personal: {},
      impersonal: ['kind', 'author_kind'],
      disposition: 'keep',
      why: 'Imprints per hour, kind and author kind (kept by the database); counts and sequences, no person.',
    },
    {
      table: 'imprint_days',
      personal: {},
      impersonal: ['kind', 'author_kind'],
      disposition: 'keep',
      why: 'Imprints per day, kind and author kind (kept by the database); counts, no person.',
    },
    {
      table: 'imprint_hours_of_day',
      personal: {},
      impersonal: [],
      disposition: 'keep',
      why: "Imprints per hour of the day over the Record's life (kept by the database); counts, no person.",
    },
    {
      table: 'reply_counts',
      personal: {},
      impersonal: [],
      disposition: 'keep',
      why: 'Replies per imprint sequence (kept by the database); numbers, no person.',
    },
  ],
  async export(sql, subject) {
    const [imprints, feedback, reports] = await Promise.all([
      sql.kysely
        .selectFrom('imprints')
        .select([
          'sequence',
          'kind',
          'body',
          'created_at',
          'unattested',
          'held',
          'held_reason',
          'reply_to',
          'receipt_id',
        ])
        .where('author_kind', '=', constant('sovereign'))
        .where('author_ref', '=', subject.id)
        .orderBy('sequence')
        .execute(),
      sql.kysely
        .selectFrom('feedback')
        .select(['id', 'topic', 'body', 'status', 'created_at', 'receipt_id'])
        .where('reporter_kind', '=', constant('sovereign'))
        .where('reporter_ref', '=', subject.id)
        .orderBy('created_at')
        .execute(),
      sql.kysely
        .selectFrom('imprint_reports')
        .select(['id', 'sequence', 'reason', 'detail', 'status', 'created_at', 'receipt_id'])
        .where('reporter_kind', '=', constant('sovereign'))
        .where('reporter_ref', '=', subject.id)
        .orderBy('created_at')
        .execute(),
    ]);
    return {
      imprints: imprints.map((i) => ({
        sequence: i.sequence,
        kind: i.kind,
        body: i.body,
        retained: i.body !== null,
        recorded_at: iso(i.created_at),
        unattested: i.unattested,
        held: i.held,
        held_reason: i.held_reason,
        reply_to: i.reply_to === null ? null : i.reply_to,
        receipt_id: i.receipt_id,
      })),
      feedback: feedback.map((f) => ({
        id: f.id,
        topic: f.topic,
        body: f.body,
        status: f.status,
        created_at: iso(f.created_at),
        receipt_id: f.receipt_id,
      })),
      reports_filed: reports.map((r) => ({
        id: r.id,
        sequence: r.sequence,
        reason: r.reason,
        detail: r.detail,
        status: r.status,
        created_at: iso(r.created_at),
        receipt_id: r.receipt_id,
      })),
    };
  },
  receiptIds: (sql, subject) =>
    receiptIdsOf(sql, [
      {
        table: 'imprints',
        where: `author_kind = 'sovereign' and author_ref = $1::text`,
        params: [subject.id],
      },
      { table: 'feedback', where: `reporter_kind = 'sovereign' and reporter_ref = $1`, params: [subject.id] },
      {
        table: 'imprint_reports',
        where: `reporter_kind = 'sovereign' and reporter_ref = $1`,
        params: [subject.id],
      },
    ]),
  async erase(tx, subject) {
    return {
      imprints: await touched(
        tx,
        // A sessionless imprint names the tag it claimed (author_ref unverified:<tag>) and shows as
        // sovereign:<tag>: it goes with the person who held that tag, body and public ref.
        `update imprints set body = null, public_author = 'redacted', author_ref = 'erased'
          where author_kind = 'sovereign' and author_ref in ($1::text, 'unverified:' || $2::text)`,
        [subject.id, subject.tag],
      ),
      feedback: await touched(
        tx,
        `update feedback set body = null, reporter_ref = null where reporter_kind = 'sovereign' and reporter_ref = $1`,
        [subject.id],
      ),
      imprint_reports: await touched(
        tx,
        `update imprint_reports set detail = null, reporter_ref = null where reporter_kind = 'sovereign' and reporter_ref = $1`,
        [subject.id],
      ),
    };
  },
};
