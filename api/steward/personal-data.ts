import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { receiptIdsOf, touched } from '../personal-data-contract.ts';
import { iso } from '../../shared/time.ts';

/** Stewards' work: triage actions and lessons name the steward by public ref. */
export const stewardPersonalData: FamilyDeclaration = {
  family: 'steward',
  tables: [
    {
      table: 'steward_actions',
      personal: { steward: "the acting steward's public ref", note: "the steward's note" },
      impersonal: ['id', 'action', 'report_id', 'outcome', 'receipt_id'],
      disposition: 'keep',
      keptWords: ['note'],
      why: 'Kept: the moderation record must say what was done and why (notes are written in the role, about imprints, not about the steward); the steward ref becomes "redacted".',
    },
    {
      table: 'lessons',
      personal: {
        steward: "the distilling steward's public ref",
        title: "the steward's words",
        body: "the steward's words",
      },
      impersonal: ['id', 'status', 'receipt_id', 'sources'],
      disposition: 'keep',
      keptWords: ['title', 'body'],
      why: 'Kept: a lesson is the service\'s collective learning, written in the role; the steward ref becomes "redacted".',
    },
  ],
  async export(sql, subject) {
    const [actions, lessons] = await Promise.all([
      sql.kysely
        .selectFrom('steward_actions')
        .select(['id', 'action', 'sequence', 'note', 'outcome', 'at', 'receipt_id'])
        .where('steward', '=', subject.ref)
        .orderBy('at')
        .orderBy('id')
        .execute(),
      sql.kysely
        .selectFrom('lessons')
        .select(['id', 'title', 'body', 'status', 'created_at', 'receipt_id'])
        .where('steward', '=', subject.ref)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    ]);
    return {
      steward_actions: actions.map((a) => ({ ...a, sequence: a.sequence, at: iso(a.at) })),
      lessons: lessons.map((l) => ({ ...l, created_at: iso(l.created_at) })),
    };
  },
  receiptIds: (sql, subject) =>
    receiptIdsOf(sql, [
      { table: 'steward_actions', where: 'steward = $1', params: [subject.ref] },
      { table: 'lessons', where: 'steward = $1', params: [subject.ref] },
    ]),
  async erase(tx, subject) {
    return {
      steward_actions: await touched(
        tx,
        `update steward_actions set steward = 'redacted' where steward = $1`,
        [subject.ref],
      ),
      lessons: await touched(tx, `update lessons set steward = 'redacted' where steward = $1`, [subject.ref]),
    };
  },
};
