import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { ERASED_TEXT, receiptIdsOf, touched } from '../personal-data-contract.ts';
import type { Row } from '../db/kysely.ts';

/** The rows of the person's export bundle: a prophecy's threshold and observed value as exact text. */
type ProphecyExport = Pick<
  Row<'prophecies'>,
  | 'id'
  | 'metric'
  | 'comparator'
  | 'probability'
  | 'made_at'
  | 'due_at'
  | 'resolved_at'
  | 'outcome'
  | 'receipt_id'
  | 'resolution_receipt_id'
> & { threshold: string; observed: string | null };
type PactExport = Pick<
  Row<'pacts'>,
  'id' | 'title' | 'detail' | 'stake' | 'made_at' | 'due_at' | 'status' | 'resolved_at' | 'receipt_id'
>;
type StakeExport = Pick<Row<'pact_stakes'>, 'pact_id' | 'side' | 'points' | 'created_at' | 'receipt_id'>;

/**
 * Calibration: prophecies, pacts and stakes. Scores are computed from stored outcomes, so the
 * rows stay (counts and calibration remain true) as acts of the anonymous member; a pact's title
 * and detail are the person's words and are deleted.
 */
export const calibrationPersonalData: FamilyDeclaration = {
  family: 'calibration',
  tables: [
    {
      table: 'prophecies',
      personal: { forecaster_id: "the forecaster's raw id" },
      impersonal: [
        'id',
        'forecaster_kind',
        'metric',
        'comparator',
        'season',
        'basis',
        'receipt_id',
        'resolution_receipt_id',
      ],
      holder: { column: 'forecaster_id' },
      disposition: 'keep',
      why: "Kept as an anonymous act: the service's calibration counts it, no one is named (moves to the anonymous member).",
    },
    {
      table: 'pacts',
      personal: {
        author_id: "the author's raw id",
        title: "the author's words",
        detail: "the author's words",
      },
      impersonal: ['id', 'status', 'receipt_id', 'resolved_by', 'resolution_receipt_id'],
      holder: { column: 'author_id' },
      disposition: 'erase',
      why: `Title and detail deleted ("${ERASED_TEXT}"); the pact, its due date, stake and outcome stay as an anonymous act.`,
    },
    {
      table: 'pact_stakes',
      personal: { sovereign_id: "the staker's raw id" },
      impersonal: ['pact_id', 'side', 'receipt_id'],
      holder: { column: 'sovereign_id', unique: { columns: ['pact_id'] } },
      disposition: 'keep',
      why: "Kept as an anonymous act: the pact's tally stays true; no one is named.",
    },
    {
      table: 'calibration_tallies',
      personal: {},
      impersonal: ['forecaster_kind'],
      notExported: 'sums per forecaster kind and probability bin: they name no one',
      disposition: 'keep',
      why: 'Kept: sums per forecaster kind and probability bin, which name no one.',
    },
    {
      table: 'calibration_streaks',
      personal: {
        actor: "the run's actor key (the forecaster's or author's raw id)",
        actor_id: "the forecaster's or author's raw id",
      },
      impersonal: ['kind', 'forecaster_kind', 'last_id'],
      // The prophecies' and pacts' triggers recompute both runs as those rows move (migration 0079).
      holder: { column: 'actor_id', merge: async () => 0 },
      notExported: 'derived from the prophecies and pacts, which the export gives',
      disposition: 'erase',
      why: "Removed: the person's current run is recomputed by the triggers when erasure moves their prophecies and pacts to the anonymous member.",
    },
  ],
  async export(sql, subject) {
    const by = [subject.id];
    const [prophecies, pacts, stakes] = await Promise.all([
      sql.query<ProphecyExport>(
        `select id, metric, comparator, threshold::text, probability, made_at, due_at, resolved_at, observed::text, outcome, receipt_id, resolution_receipt_id
           from prophecies where forecaster_kind = 'sovereign' and forecaster_id = $1 order by made_at, id`,
        by,
      ),
      sql.query<PactExport>(
        'select id, title, detail, stake, made_at, due_at, status, resolved_at, receipt_id from pacts where author_id = $1 order by made_at, id',
        by,
      ),
      sql.query<StakeExport>(
        'select pact_id, side, points, created_at, receipt_id from pact_stakes where sovereign_id = $1 order by created_at',
        by,
      ),
    ]);
    return { prophecies, pacts, stakes: stakes };
  },
  receiptIds: (sql, subject) =>
    receiptIdsOf(sql, [
      { table: 'prophecies', where: 'forecaster_id = $1', params: [subject.id] },
      { table: 'pacts', where: 'author_id = $1', params: [subject.id] },
      { table: 'pact_stakes', where: 'sovereign_id = $1', params: [subject.id] },
    ]),
  async erase(tx, subject) {
    const ids = [subject.id, subject.anonymousId];
    return {
      prophecies: await touched(tx, 'update prophecies set forecaster_id = $2 where forecaster_id = $1', ids),
      pacts: await touched(
        tx,
        `update pacts set author_id = $2, title = '${ERASED_TEXT}', detail = '' where author_id = $1`,
        ids,
      ),
      pact_stakes: await touched(tx, 'update pact_stakes set sovereign_id = $2 where sovereign_id = $1', ids),
    };
  },
};
