import type { FamilyDeclaration } from '../personal-data-contract.ts';
import { ERASED_TEXT, receiptIdsOf, touched } from '../personal-data-contract.ts';
import type { Sql } from '../db/database.ts';
import type { Row } from '../db/kysely.ts';

/**
 * Governance acts are counted acts: a cosign, a ratification, a pledge, a backing, a court
 * signature. Erasure keeps each act (so thresholds, tallies and verdicts stay true) as an act of
 * the anonymous member — never attributed — and deletes the words the person wrote (pledge text,
 * a juror's reason). Proposal text is kept: it is the motion the polity voted on and the text the
 * constitution cites.
 */
const ACT = 'Kept as an anonymous act: counted, never attributed (moves to the anonymous member).';

export const governancePersonalData: FamilyDeclaration = {
  family: 'governance',
  tables: [
    {
      table: 'governance_proposals',
      personal: {
        proposer_id: "the proposer's raw id",
        title: "the proposer's words",
        body: "the proposer's words",
      },
      impersonal: ['id', 'amends', 'state', 'receipt_id', 'cosigned_receipt_id', 'article_id'],
      holder: { column: 'proposer_id' },
      disposition: 'keep',
      keptWords: ['title', 'body'],
      why: 'Kept: a proposal is a public motion the polity cosigned and ratified, and the constitution cites its text; the proposer is unlinked (anonymous member).',
    },
    {
      table: 'governance_articles',
      personal: {
        title: 'ratified text first written by a proposer',
        body: 'ratified text first written by a proposer',
      },
      impersonal: ['id', 'proposal_id', 'amends', 'receipt_id'],
      notExported: "names no author; the person's proposals are exported",
      disposition: 'keep',
      keptWords: ['title', 'body'],
      why: 'Kept: the constitution; it names no author.',
    },
    {
      table: 'governance_cosigns',
      personal: { sovereign_id: "the cosigner's raw id" },
      impersonal: ['proposal_id', 'receipt_id'],
      holder: { column: 'sovereign_id', unique: { columns: ['proposal_id'] } },
      disposition: 'keep',
      why: ACT,
    },
    {
      table: 'governance_ratifications',
      personal: { sovereign_id: "the ratifier's raw id" },
      impersonal: ['proposal_id', 'receipt_id'],
      holder: { column: 'sovereign_id', unique: { columns: ['proposal_id'] } },
      disposition: 'keep',
      why: ACT,
    },
    {
      table: 'governance_pledges',
      personal: { sovereign_id: "the pledger's raw id", body: "the pledger's words" },
      impersonal: ['id', 'article', 'status', 'receipt_id', 'review_receipt_id'],
      holder: {
        column: 'sovereign_id',
        unique: { columns: ['article'], where: (row) => `${row}.status <> 'lapsed'` },
      },
      disposition: 'erase',
      why: `The pledge text is deleted ("${ERASED_TEXT}"); the pledge itself is ${ACT.toLowerCase()}`,
    },
    {
      table: 'governance_pledge_backs',
      personal: { sovereign_id: "the backer's raw id" },
      impersonal: ['pledge_id', 'receipt_id'],
      holder: { column: 'sovereign_id', unique: { columns: ['pledge_id'] } },
      disposition: 'keep',
      why: ACT,
    },
    {
      table: 'governance_pledge_reviews',
      personal: { reviewer_id: "the reviewer's raw id" },
      impersonal: ['pledge_id', 'outcome', 'receipt_id'],
      holder: { column: 'reviewer_id', unique: { columns: ['pledge_id', 'outcome'] } },
      disposition: 'keep',
      why: ACT,
    },
    {
      table: 'governance_court_cases',
      personal: { opener_id: "the opener's raw id", reason: "the opener's words" },
      impersonal: [
        'id',
        'triage_action_id',
        'state',
        'outcome',
        'receipt_id',
        'final_receipt_id',
        'precedent_id',
        'dissents',
      ],
      holder: { column: 'opener_id' },
      disposition: 'erase',
      why: `The opener's reason is deleted ("${ERASED_TEXT}"); the case and its verdict stay, opened by no one named.`,
    },
    {
      table: 'governance_court_signatures',
      personal: { sovereign_id: "the juror's raw id", reason: "the juror's words" },
      impersonal: ['case_id', 'verdict', 'receipt_id'],
      holder: { column: 'sovereign_id', unique: { columns: ['case_id'] } },
      disposition: 'erase',
      why: `The juror's reason is deleted ("${ERASED_TEXT}"); the signature and its verdict are ${ACT.toLowerCase()}`,
    },
    {
      table: 'governance_precedents',
      personal: { holding: "the court's holding" },
      impersonal: ['id', 'case_id', 'receipt_id'],
      notExported: "names no juror; the person's signatures are exported",
      disposition: 'keep',
      keptWords: ['holding'],
      why: "Kept: the court's holding is public law; it names no juror.",
    },
  ],
  async export(sql, subject) {
    const by = [subject.id];
    const [proposals, cosigns, ratifications, pledges, backs, reviews, cases, signatures] = await Promise.all(
      [
        sql.query<
          Pick<
            Row<'governance_proposals'>,
            'id' | 'title' | 'body' | 'amends' | 'state' | 'created_at' | 'receipt_id'
          >
        >(
          'select id, title, body, amends, state, created_at, receipt_id from governance_proposals where proposer_id = $1 order by created_at, id',
          by,
        ),
        sql.query<Pick<Row<'governance_cosigns'>, 'proposal_id' | 'at' | 'receipt_id'>>(
          'select proposal_id, at, receipt_id from governance_cosigns where sovereign_id = $1 order by at',
          by,
        ),
        sql.query<Pick<Row<'governance_ratifications'>, 'proposal_id' | 'at' | 'receipt_id'>>(
          'select proposal_id, at, receipt_id from governance_ratifications where sovereign_id = $1 order by at',
          by,
        ),
        sql.query<
          Pick<Row<'governance_pledges'>, 'id' | 'article' | 'body' | 'status' | 'created_at' | 'receipt_id'>
        >(
          'select id, article, body, status, created_at, receipt_id from governance_pledges where sovereign_id = $1 order by created_at, id',
          by,
        ),
        sql.query<Pick<Row<'governance_pledge_backs'>, 'pledge_id' | 'at' | 'receipt_id'>>(
          'select pledge_id, at, receipt_id from governance_pledge_backs where sovereign_id = $1 order by at',
          by,
        ),
        sql.query<Pick<Row<'governance_pledge_reviews'>, 'pledge_id' | 'outcome' | 'at' | 'receipt_id'>>(
          'select pledge_id, outcome, at, receipt_id from governance_pledge_reviews where reviewer_id = $1 order by at',
          by,
        ),
        sql.query<
          Pick<
            Row<'governance_court_cases'>,
            'id' | 'reason' | 'state' | 'outcome' | 'opened_at' | 'receipt_id'
          >
        >(
          'select id, reason, state, outcome, opened_at, receipt_id from governance_court_cases where opener_id = $1 order by opened_at, id',
          by,
        ),
        sql.query<
          Pick<Row<'governance_court_signatures'>, 'case_id' | 'verdict' | 'reason' | 'at' | 'receipt_id'>
        >(
          'select case_id, verdict, reason, at, receipt_id from governance_court_signatures where sovereign_id = $1 order by at',
          by,
        ),
      ],
    );
    return {
      proposals,
      cosigns,
      ratifications,
      pledges,
      pledges_backed: backs,
      pledge_reviews: reviews,
      court_cases_opened: cases,
      court_signatures: signatures,
    };
  },
  receiptIds: (sql, subject) =>
    receiptIdsOf(sql, [
      { table: 'governance_proposals', where: 'proposer_id = $1', params: [subject.id] },
      { table: 'governance_cosigns', where: 'sovereign_id = $1', params: [subject.id] },
      { table: 'governance_ratifications', where: 'sovereign_id = $1', params: [subject.id] },
      { table: 'governance_pledges', where: 'sovereign_id = $1', params: [subject.id] },
      { table: 'governance_pledge_backs', where: 'sovereign_id = $1', params: [subject.id] },
      { table: 'governance_pledge_reviews', where: 'reviewer_id = $1', params: [subject.id] },
      { table: 'governance_court_cases', where: 'opener_id = $1', params: [subject.id] },
      { table: 'governance_court_signatures', where: 'sovereign_id = $1', params: [subject.id] },
    ]),
  async erase(tx, subject) {
    const move = (table: string, column: string, extra = '') =>
      rekey(tx, table, column, subject.id, subject.anonymousId, extra);
    return {
      governance_proposals: await move('governance_proposals', 'proposer_id'),
      governance_cosigns: await move('governance_cosigns', 'sovereign_id'),
      governance_ratifications: await move('governance_ratifications', 'sovereign_id'),
      governance_pledges: await move('governance_pledges', 'sovereign_id', `, body = '${ERASED_TEXT}'`),
      governance_pledge_backs: await move('governance_pledge_backs', 'sovereign_id'),
      governance_pledge_reviews: await move('governance_pledge_reviews', 'reviewer_id'),
      governance_court_cases: await move(
        'governance_court_cases',
        'opener_id',
        `, reason = '${ERASED_TEXT}'`,
      ),
      governance_court_signatures: await move(
        'governance_court_signatures',
        'sovereign_id',
        `, reason = '${ERASED_TEXT}'`,
      ),
    };
  },
};

function rekey(
  tx: Sql,
  table: string,
  column: string,
  from: string,
  to: string,
  extra: string,
): Promise<number> {
  return touched(tx, `update ${table} set ${column} = $2${extra} where ${column} = $1`, [from, to]);
}
