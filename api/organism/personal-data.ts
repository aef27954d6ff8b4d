import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { ERASED_TEXT, receiptIdsOf, touched } from '../personal-data-contract.ts';

/** The organism: stances people take on its claims; everything else it stores is its own measurement. */
export const organismPersonalData: FamilyDeclaration = {
  family: 'organism',
  tables: [
    {
      table: 'mind_stances',
      personal: { sovereign_id: "the sovereign's raw id", reason: "the sovereign's words (never published)" },
      impersonal: ['claim', 'stance', 'receipt_id'],
      holder: { column: 'sovereign_id', unique: { columns: ['claim'] } },
      disposition: 'erase',
      why: `The reason is deleted ("${ERASED_TEXT}"); the stance stays in the claim's tally as an anonymous act.`,
    },
    {
      table: 'dreams',
      personal: { terms: "single words counted across a day's retained bodies" },
      impersonal: ['receipt_id'],
      notExported: 'terms of many bodies, no author',
      disposition: 'keep',
      keptWords: ['terms'],
      why: 'Kept: terms and counts of many bodies, never a body and never an author, so no one can be found in them.',
    },
    {
      table: 'dream_terms',
      personal: { term: 'a single word counted across the dreams (the same words as `dreams.terms`)' },
      impersonal: [],
      notExported: 'terms of many bodies, no author',
      disposition: 'keep',
      keptWords: ['term'],
      why: 'Kept: how many dreams each term appeared in, never a body and never an author, so no one can be found in them.',
    },
    {
      table: 'dream_links',
      personal: { a: 'a single dream term', b: 'a single dream term' },
      impersonal: [],
      notExported: 'pairs of terms of many bodies, no author',
      disposition: 'keep',
      keptWords: ['a', 'b'],
      why: 'Kept: how many dreams two terms shared, never a body and never an author, so no one can be found in them.',
    },
    {
      table: 'prevention_days',
      personal: {},
      impersonal: ['held'],
      disposition: 'keep',
      why: "The prevention study's counts per UTC day: imprints accepted and held per spam rule, never an author.",
    },
    {
      table: 'discrimination_results',
      personal: {},
      impersonal: ['figures'],
      disposition: 'keep',
      why: 'Outcome rates of k-anonymous groups (kind and join month), never an author.',
    },
    {
      table: 'truth_checks',
      personal: {},
      impersonal: ['claim', 'evidence', 'change'],
      disposition: 'keep',
      why: "The service's checks of its own claims.",
    },
    {
      table: 'truth_tallies',
      personal: {},
      impersonal: ['claim', 'last_evidence'],
      disposition: 'keep',
      why: "The tallies of the service's checks of its own claims.",
    },
    {
      table: 'self_knowledge',
      personal: {},
      impersonal: ['trials', 'truth', 'coverage', 'watch'],
      disposition: 'keep',
      why: "The service's kept self-trials: trial names, counts, positions and receipt ids, never a person.",
    },
    {
      table: 'self_knowledge_walks',
      personal: {},
      impersonal: ['walk', 'mode', 'cursor'],
      disposition: 'keep',
      why: 'Where verification has reached: sequence numbers, dates, leaf indexes and hashes.',
    },
    {
      table: 'self_knowledge_problems',
      personal: {},
      impersonal: ['trial', 'at_key', 'detail'],
      disposition: 'keep',
      why: 'Problems verification found: positions and receipt ids, never a subject or a body.',
    },
    {
      table: 'cross_hours',
      personal: {},
      impersonal: ['from_kind', 'to_kind'],
      disposition: 'keep',
      why: 'Replies per hour between kinds of author (kept by the database); counts, no person.',
    },
    {
      table: 'thread_nodes',
      personal: {},
      impersonal: [],
      disposition: 'keep',
      why: 'Reply threads as sequences and depths (kept by the database); no person.',
    },
    {
      table: 'threads',
      personal: {},
      impersonal: [],
      disposition: 'keep',
      why: 'Reply threads as root sequences, sizes and depths (kept by the database); no person.',
    },
    {
      table: 'kept_views',
      personal: { body: 'public refs a computed view may name, as its public surface shows them' },
      impersonal: ['name', 'coverage'],
      notExported: 'a view of the whole service, recomputed every minute',
      disposition: 'erase',
      why: 'A view naming the person is deleted; the next read or run computes it again without them.',
    },
    {
      table: 'kept_view_claims',
      personal: {},
      impersonal: ['name'],
      disposition: 'keep',
      why: 'Which kept view a job is computing, and since when.',
    },
    {
      table: 'vigilance_alerts',
      personal: {},
      impersonal: ['trial', 'detail', 'receipt_id'],
      disposition: 'keep',
      why: "The service's alerts about itself.",
    },
    {
      table: 'vigilance_watches',
      personal: {},
      impersonal: ['trial'],
      disposition: 'keep',
      why: "The service's watches.",
    },
    {
      table: 'vitals_minutes',
      personal: {},
      impersonal: ['process_id', 'buckets'],
      disposition: 'keep',
      why: 'Request counts per minute.',
    },
    {
      table: 'organism_runs',
      personal: {},
      impersonal: ['id', 'study', 'variation', 'findings', 'receipt_id'],
      disposition: 'keep',
      why: "The service's experiments on itself.",
    },
    {
      table: 'failures',
      personal: {},
      impersonal: ['lane'],
      disposition: 'keep',
      why: 'Failure counts per lane.',
    },
    {
      table: 'job_runs',
      personal: {},
      impersonal: ['job', 'last_outcome'],
      disposition: 'keep',
      why: "The service's job bookkeeping.",
    },
  ],
  async export(sql, subject) {
    const stances = await sql.kysely
      .selectFrom('mind_stances')
      .select(['claim', 'stance', 'reason', 'taken_at', 'receipt_id'])
      .where('sovereign_id', '=', subject.id)
      .orderBy('taken_at')
      .orderBy('claim')
      .execute();
    return { mind_stances: stances };
  },
  receiptIds: (sql, subject) =>
    receiptIdsOf(sql, [{ table: 'mind_stances', where: 'sovereign_id = $1', params: [subject.id] }]),
  async erase(tx, subject) {
    return {
      mind_stances: await touched(
        tx,
        `update mind_stances set sovereign_id = $2, reason = '${ERASED_TEXT}' where sovereign_id = $1`,
        [subject.id, subject.anonymousId],
      ),
      kept_views: await touched(tx, `delete from kept_views where strpos(body::text, $1) > 0`, [subject.ref]),
    };
  },
};
