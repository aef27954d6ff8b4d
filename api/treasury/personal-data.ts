import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { ERASED_TAG, ERASED_TEXT, receiptIdsOf, touched } from '../personal-data-contract.ts';
import { sql as fragment } from 'kysely';
import { constant } from '../db/kysely.ts';

/**
 * The treasury: what a person paid for and what it bought. Payment records are kept under the
 * bookkeeping basis (a payment received must stay on the books for the retention period the
 * processor and the tax rules require), but unlinked: the holder moves to the anonymous member,
 * public refs become no one, the Stripe customer id is deleted (the processor keeps its own
 * record under its own obligations, reachable from the event id), and the words of an inscription
 * are deleted.
 */
const BOOKS =
  'Kept (bookkeeping: payments received stay on the books for the retention period) but unlinked: the holder becomes the anonymous member.';

export const treasuryPersonalData: FamilyDeclaration = {
  family: 'treasury',
  tables: [
    {
      table: 'treasury_intents',
      personal: {
        holder_ref: "the holder's raw id or handle",
        public_ref: "the holder's tag or handle",
        detail: "the holder's words (inscription text, covenant name)",
      },
      impersonal: ['id', 'purpose', 'holder_kind', 'currency', 'checkout_session_id', 'status'],
      holder: { column: 'holder_ref', kind: 'holder_kind', publicTag: 'public_ref' },
      disposition: 'keep',
      why: `${BOOKS} Public ref and detail (the holder's words) are deleted.`,
    },
    {
      table: 'treasury_payments',
      personal: { holder_ref: "the payer's raw id or handle", customer_id: "the payer's Stripe customer id" },
      impersonal: ['id', 'event_id', 'intent_id', 'purpose', 'holder_kind', 'currency'],
      holder: {
        column: 'holder_ref',
        kind: 'holder_kind',
        // An inscription names its author through the payment: it follows the payment's holder.
        async merge(tx, fromId, toId, tag) {
          await tx.query(
            `update treasury_inscriptions set public_ref = $2
              where payment_id in (select id from treasury_payments where holder_kind = 'sovereign' and holder_ref = $1)`,
            [fromId, `sovereign:${tag}`],
          );
          return touched(
            tx,
            `update treasury_payments set holder_ref = $2 where holder_kind = 'sovereign' and holder_ref = $1`,
            [fromId, toId],
          );
        },
      },
      disposition: 'keep',
      why: `${BOOKS} The Stripe customer id is deleted.`,
    },
    {
      table: 'treasury_entitlements',
      personal: { holder_ref: "the holder's raw id or handle" },
      impersonal: ['id', 'holder_kind', 'capability', 'payment_id'],
      holder: { column: 'holder_ref', kind: 'holder_kind' },
      disposition: 'keep',
      why: BOOKS,
    },
    {
      table: 'oracle_reports',
      personal: { holder_ref: "the buyer's raw id or handle" },
      impersonal: ['id', 'holder_kind', 'entitlement_id', 'report', 'receipt_id'],
      holder: { column: 'holder_ref', kind: 'holder_kind' },
      disposition: 'keep',
      why: `${BOOKS} A report holds only the service's own figures.`,
    },
    {
      table: 'treasury_patrons',
      personal: { holder_ref: "the patron's raw id or handle", public_ref: "the patron's tag or handle" },
      // page_key: random, derived from nothing (migration 0091).
      impersonal: ['holder_kind', 'page_key'],
      holder: {
        column: 'holder_ref',
        kind: 'holder_kind',
        // One patron row per holder: the absorbed row's units add to the kept one.
        async merge(tx, fromId, toId, tag) {
          await tx.query(
            `insert into treasury_patrons (holder_kind, holder_ref, public_ref, listed, units, since)
               select holder_kind, $2, $3, listed, units, since from treasury_patrons where holder_kind = 'sovereign' and holder_ref = $1
             on conflict (holder_kind, holder_ref) do update set units = treasury_patrons.units + excluded.units,
               listed = treasury_patrons.listed or excluded.listed, since = least(treasury_patrons.since, excluded.since)`,
            [fromId, toId, tag],
          );
          return touched(
            tx,
            `delete from treasury_patrons where holder_kind = 'sovereign' and holder_ref = $1`,
            [fromId],
          );
        },
      },
      disposition: 'keep',
      why: `${BOOKS} The patron is no longer listed and the public ref names no one.`,
    },
    {
      table: 'treasury_inscriptions',
      personal: { body: "the buyer's words", public_ref: "the buyer's tag or handle" },
      impersonal: ['id', 'payment_id'],
      disposition: 'erase',
      why: `The words are deleted ("${ERASED_TEXT}") and the author names no one; the paid entry stays on the books.`,
    },
    {
      table: 'treasury_units',
      personal: {},
      impersonal: [],
      disposition: 'keep',
      why: 'How many patrons hold each number of units (kept by the database); counts, no person.',
    },
    {
      table: 'treasury_processed_events',
      personal: {},
      impersonal: ['event_id', 'type', 'outcome'],
      disposition: 'keep',
      why: 'Provider event ids applied once; no person.',
    },
    {
      table: 'treasury_authorizations',
      personal: {},
      impersonal: ['authorization_id', 'event_id', 'strategy', 'currency', 'reason'],
      disposition: 'keep',
      why: "The service's own card spending.",
    },
    {
      table: 'treasury_strategies',
      personal: {},
      impersonal: ['name', 'category', 'description', 'currency'],
      disposition: 'keep',
      why: 'Spending limits.',
    },
  ],
  async export(sql, subject) {
    // Amounts and units leave as text (`::text`, the column's name kept), as they always did.
    const text = (column: 'amount_cents' | 'units') =>
      fragment<string>`${fragment.ref(column)}::text`.as(column);
    const sovereign = constant('sovereign');
    const [intents, payments, entitlements, reports, patronage, inscriptions] = await Promise.all([
      sql.kysely
        .selectFrom('treasury_intents')
        .select([
          'id',
          'purpose',
          text('amount_cents'),
          'currency',
          'uses',
          'detail',
          'status',
          'created_at',
          'paid_at',
        ])
        .where('holder_kind', '=', sovereign)
        .where('holder_ref', '=', subject.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      sql.kysely
        .selectFrom('treasury_payments')
        .select([
          'id',
          'event_id',
          'intent_id',
          'purpose',
          text('amount_cents'),
          'currency',
          'customer_id',
          'received_at',
        ])
        .where('holder_kind', '=', sovereign)
        .where('holder_ref', '=', subject.id)
        .orderBy('received_at')
        .orderBy('id')
        .execute(),
      sql.kysely
        .selectFrom('treasury_entitlements')
        .select(['id', 'capability', 'uses_total', 'uses_left', 'payment_id', 'granted_at'])
        .where('holder_kind', '=', sovereign)
        .where('holder_ref', '=', subject.id)
        .orderBy('granted_at')
        .orderBy('id')
        .execute(),
      sql.kysely
        .selectFrom('oracle_reports')
        .select(['id', 'entitlement_id', 'report', 'receipt_id', 'created_at'])
        .where('holder_kind', '=', sovereign)
        .where('holder_ref', '=', subject.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      sql.kysely
        .selectFrom('treasury_patrons')
        .select(['listed', text('units'), 'since'])
        .where('holder_kind', '=', sovereign)
        .where('holder_ref', '=', subject.id)
        .execute(),
      sql.kysely
        .selectFrom('treasury_inscriptions as i')
        .innerJoin('treasury_payments as p', 'p.id', 'i.payment_id')
        .select(['i.id', 'i.payment_id', 'i.body', 'i.inscribed_at'])
        .where('p.holder_kind', '=', sovereign)
        .where('p.holder_ref', '=', subject.id)
        .orderBy('i.inscribed_at')
        .orderBy('i.id')
        .execute(),
    ]);
    return {
      checkout_intents: intents,
      payments,
      entitlements,
      oracle_reports: reports,
      patronage,
      inscriptions,
    };
  },
  receiptIds: (sql, subject) =>
    receiptIdsOf(sql, [
      {
        table: 'oracle_reports',
        where: `holder_kind = 'sovereign' and holder_ref = $1`,
        params: [subject.id],
      },
    ]),
  async erase(tx, subject) {
    const ids = [subject.id, subject.anonymousId];
    const mine = `holder_kind = 'sovereign' and holder_ref = $1`;
    return {
      treasury_inscriptions: await touched(
        tx,
        `update treasury_inscriptions set body = '${ERASED_TEXT}', public_ref = 'redacted'
          where payment_id in (select id from treasury_payments where ${mine})`,
        [subject.id],
      ),
      treasury_intents: await touched(
        tx,
        `update treasury_intents set holder_ref = $2, public_ref = '${ERASED_TAG}', detail = '{}'::jsonb where ${mine}`,
        ids,
      ),
      treasury_payments: await touched(
        tx,
        `update treasury_payments set holder_ref = $2, customer_id = null where ${mine}`,
        ids,
      ),
      treasury_entitlements: await touched(
        tx,
        `update treasury_entitlements set holder_ref = $2 where ${mine}`,
        ids,
      ),
      oracle_reports: await touched(tx, `update oracle_reports set holder_ref = $2 where ${mine}`, ids),
      treasury_patrons: await touched(
        tx,
        `update treasury_patrons set holder_ref = $2, public_ref = '${ERASED_TAG}', listed = false where ${mine}`,
        ids,
      ),
    };
  },
};
