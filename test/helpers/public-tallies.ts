/**
 * The public tallies of migration 0086 counted the slow way, from every row: one `name, n` row per
 * tally, for tests that hold the kept tallies to a recount.
 */
export const PUBLIC_TALLIES_RECOUNT = `select 'data_requests:' || kind || ':' || status as name, count(*) as n from data_requests group by 1
     union all select 'imprint_reports_open', count(*) from imprint_reports where status = 'open' having count(*) > 0
     union all select 'treasury_income:' || currency || ':' || purpose, sum(amount_cents) from treasury_payments group by 1
     union all select 'treasury_payments:' || currency || ':' || purpose, count(*) from treasury_payments group by 1
     union all select 'treasury_spent:' || currency || ':' || coalesce(strategy, ''), sum(amount_cents) from treasury_authorizations where approved group by 1
     union all select 'treasury_authorizations:' || currency || ':' || coalesce(strategy, ''), count(*) from treasury_authorizations where approved group by 1
     union all select 'treasury_patrons:' || holder_kind, count(*) from treasury_patrons group by 1
     union all select 'codex_pledges:' || status || ':' || article, count(*) from governance_pledges group by 1
     union all select 'codex_backs:' || p.article, count(*)
       from governance_pledge_backs b join governance_pledges p on p.id = b.pledge_id group by 1
     union all select 'feedback:' || topic || ':' || status, count(*) from feedback group by 1
     union all select 'mind_stances:' || stance || ':' || claim, count(*) from mind_stances group by 1`;

/**
 * The court's tallies of migrations 0092 and 0093 counted the same way, the dissents from the
 * signatures themselves (not from the count each case keeps).
 */
export const COURT_TALLIES_RECOUNT = `select 'court:cases' as name, count(*) as n from governance_court_cases having count(*) > 0
     union all select 'court:open', count(*) from governance_court_cases where state = 'open' having count(*) > 0
     union all select 'court:outcome:' || outcome, count(*) from governance_court_cases where outcome is not null group by 1
     union all select 'court:precedents', count(*) from governance_precedents having count(*) > 0
     union all select 'court:with_dissent', count(distinct c.id) from governance_court_cases c
       join governance_court_signatures g on g.case_id = c.id and g.verdict <> c.outcome where c.state = 'final' having count(*) > 0
     union all select 'court:dissents', count(*) from governance_court_cases c
       join governance_court_signatures g on g.case_id = c.id and g.verdict <> c.outcome where c.state = 'final' having count(*) > 0`;
