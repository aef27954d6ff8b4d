/**
 * Change status beside governance receipts (the ledger's change-status registry, wired in
 * api/families.ts): a pledge's review state and a court case's state, reported separately — a
 * receipt never implies them.
 */
import type { ChangeStatusResolver } from '../ledger/change-status.ts';
import { CASE_ID, PLEDGE_ID } from '../../shared/governance/court.ts';

export const pledgeChangeStatus: ChangeStatusResolver = async (sql, ref, subject, now) => {
  if (!PLEDGE_ID.test(ref)) return null;
  const [row] = await sql.kysely
    .selectFrom('governance_pledges')
    .select(['status', 'article'])
    .where('id', '=', ref)
    .execute();
  if (!row) return null;
  const detail =
    row.status === 'lapsed'
      ? `The pledge to ${row.article} has lapsed.`
      : row.status === 'upheld'
        ? `The pledge to ${row.article} is live and was reviewed as upheld.`
        : `The pledge to ${row.article} is live, not yet reviewed.`;
  return { subject, status: row.status, detail, as_of: now.toISOString() };
};

export const caseChangeStatus: ChangeStatusResolver = async (sql, ref, subject, now) => {
  if (!CASE_ID.test(ref)) return null;
  const [row] = await sql.kysely
    .selectFrom('governance_court_cases')
    .select(['state', 'outcome', 'precedent_id'])
    .where('id', '=', ref)
    .execute();
  if (!row) return null;
  const status = row.state === 'final' ? (row.outcome === 'overturn' ? 'overturned' : 'upheld') : 'open';
  const detail =
    row.state === 'final'
      ? `Final verdict: ${status}; it set ${row.precedent_id}.`
      : 'Open: jurors are signing; 3 concurring signatures make the verdict final.';
  return { subject, status, detail, as_of: now.toISOString() };
};
