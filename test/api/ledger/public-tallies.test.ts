/**
 * The transparency report's and the treasury's figures kept (migration 0086): /api/transparency,
 * /api/treasury and /api/patrons read tallies instead of grouping every data request, open report,
 * payment, approved authorization and patron on each request. The tallies stay what a recount of
 * the rows says after a report through the door, inserts, status changes, deletions and
 * truncates, each in the writer's own statement, and the views publish the recount.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { signedInSovereign } from '../../helpers/identity.ts';
import { requests } from '../../helpers/http.ts';
import { PUBLIC_TALLIES_RECOUNT } from '../../helpers/public-tallies.ts';
import { kAnonymousCount } from '../../../shared/boundaries/k-anonymity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const db = () => t.database.db;

const KEPT =
  /^(data_requests|treasury_(income|payments|spent|authorizations|patrons)|codex_(pledges|backs)|feedback|mind_stances):|^imprint_reports_open$/;

/** The kept tallies of migration 0086 (a figure counted down to none reads as none). */
async function kept(): Promise<Record<string, number>> {
  const rows = await db().query<{ name: string; value: string | number }>(
    'select name, value from record_tallies where value <> 0 order by name',
  );
  return Object.fromEntries(rows.filter((r) => KEPT.test(r.name)).map((r) => [r.name, Number(r.value)]));
}

/** The same counted the slow way, from every row. */
async function recounted(): Promise<Record<string, number>> {
  const rows = await db().query<{ name: string; n: string | number }>(PUBLIC_TALLIES_RECOUNT);
  return Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.name, Number(r.n)]));
}

const http = requests(() => t.app);
const get = async (url: string) => (await http.get(url)).json();

/** What the views publish, beside what the slow way says they should. */
async function published() {
  const transparency = await get('/api/transparency');
  const treasury = await get('/api/treasury');
  const patrons = await get('/api/patrons');
  const [slow] = await db().query<Record<string, string | number>>(
    `select (select count(*) from imprint_reports where status = 'open') as open_reports,
            (select count(*) from data_requests where kind = 'export' and status = 'completed') as exports_completed,
            (select count(*) from treasury_patrons where holder_kind = 'sovereign') as humans`,
  );
  const income = await db().query<{ purpose: string; currency: string; amount: string; payments: string }>(
    `select purpose, currency, sum(amount_cents) as amount, count(*) as payments from treasury_payments
      group by purpose, currency order by purpose, currency`,
  );
  const balance = await db().query<{ currency: string; income: string; spending: string }>(
    `select currency, sum(income) as income, sum(spending) as spending from (
       select currency, amount_cents as income, 0 as spending from treasury_payments
       union all select currency, 0, amount_cents from treasury_authorizations where approved) x
     group by currency order by currency`,
  );
  const spending = await db().query<{
    category: string;
    currency: string;
    amount: string;
    authorizations: string;
  }>(
    `select coalesce(s.category, 'uncategorised') as category, a.currency, sum(a.amount_cents) as amount,
            count(*) as authorizations
       from treasury_authorizations a left join treasury_strategies s on s.name = a.strategy
      where a.approved group by 1, 2 order by 1, 2`,
  );
  const codex = await get('/api/codex/pledges');
  const perArticle = await db().query<Record<string, string | number>>(
    `select p.article, count(*) as pledges, count(*) filter (where p.status <> 'lapsed') as live,
            count(*) filter (where p.status = 'upheld') as upheld, count(*) filter (where p.status = 'lapsed') as lapsed,
            (select count(*) from governance_pledge_backs b join governance_pledges q on q.id = b.pledge_id
              where q.article = p.article) as backers
       from governance_pledges p group by p.article order by count(*) desc, p.article`,
  );
  return {
    per_article: [
      codex.per_article.map(({ title: _title, ...counts }: Record<string, unknown>) => counts),
      perArticle.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'article' ? v : Number(v)])),
      ),
    ],
    spending: [
      treasury.spending_by_category,
      spending.map((r) => ({ ...r, amount: Number(r.amount), authorizations: Number(r.authorizations) })),
    ],
    open_reports: [transparency.quarantines.open_reports, Number(slow!.open_reports)],
    exports_completed: [
      transparency.data_requests.export.completed,
      kAnonymousCount(Number(slow!.exports_completed)),
    ],
    humans: [patrons.counts.humans, kAnonymousCount(Number(slow!.humans))],
    income: [
      treasury.income_by_purpose,
      income.map((r) => ({ ...r, amount: Number(r.amount), payments: Number(r.payments) })),
    ],
    // Every currency that took or spent anything (the configured one shows at zero besides).
    balance: [
      treasury.balance.filter((b: { income: number; spending: number }) => b.income || b.spending),
      balance.map((r) => ({
        currency: r.currency,
        income: Number(r.income),
        spending: Number(r.spending),
        balance: Number(r.income) - Number(r.spending),
      })),
    ],
  };
}

async function expectKeptAndPublished() {
  expect(await kept()).toEqual(await recounted());
  for (const [name, [view, slow]] of Object.entries(await published()))
    expect([name, view]).toEqual([name, slow]);
}

describe('the transparency and treasury tallies', () => {
  it('are kept equal to a recount through inserts, changes, deletions and truncates', async () => {
    const me = await signedInSovereign(t.app);
    const reporter = await signedInSovereign(t.app);
    const said = await t.app.inject({
      method: 'POST',
      url: '/api/quick-imprint',
      payload: { body: 'a thought to report' },
      headers: { cookie: me.cookie },
    });
    const sequence = Number(said.json().sequence);
    const report = await t.app.inject({
      method: 'POST',
      url: '/imprint/report',
      payload: { sequence, reason: 'abuse' },
      headers: { cookie: reporter.cookie, origin: 'http://civitas.test' },
    });
    expect(report.statusCode).toBe(200);
    await db().query(
      `insert into imprint_reports (id, sequence, reason, reporter_kind, status, created_at, receipt_id)
       select 'rep-' || g, $1, 'spam', 'anonymous', case when g % 3 = 0 then 'closed' else 'open' end, now(), 'r-rep-' || g
       from generate_series(1, 30) g`,
      [sequence],
    );
    await db().query(
      `insert into data_requests (id, sovereign_id, kind, status, created_at, receipt_id)
       select 'dr-' || g, $1, case when g % 2 = 0 then 'export' else 'erasure' end,
              case when g % 5 = 0 then 'declined' else 'completed' end, now(), 'r-dr-' || g
       from generate_series(1, 40) g`,
      [me.id],
    );
    await db().query(
      `insert into treasury_payments (id, event_id, purpose, holder_kind, holder_ref, amount_cents, currency, received_at)
       select 'pay-' || g, 'evt-' || g, (array['oracle', 'patronage', 'inscription'])[1 + g % 3], 'sovereign', $1,
              100 * g, case when g % 4 = 0 then 'usd' else 'eur' end, now()
       from generate_series(1, 25) g`,
      [me.id],
    );
    await db().query(
      `insert into treasury_strategies (name, category, description, currency, per_authorization_cents, daily_cents)
       values ('tally-hosting', 'hosting', 'servers', 'eur', 10000, 100000) on conflict (name) do nothing`,
    );
    await db().query(
      `insert into treasury_authorizations (authorization_id, strategy, amount_cents, currency, approved, reason, decided_at)
       select 'auth-' || g, (array[null, 'no-such-strategy', 'tally-hosting'])[1 + g % 3], 50 * g, 'eur', g % 4 <> 0, 'r', now()
       from generate_series(1, 20) g`,
    );
    await db().query(
      `insert into treasury_patrons (holder_kind, holder_ref, public_ref, listed, units, since)
       select case when g % 3 = 0 then 'agent' else 'sovereign' end, 'patron-' || g, 'p' || g, g % 2 = 0, g, now()
       from generate_series(1, 12) g`,
    );
    await db().query(
      `insert into governance_pledges (id, article, sovereign_id, body, status, created_at, receipt_id)
       select 'pledge-t' || g, 'axiom-' || (1 + g % 3), $1, 'a pledge', (array['active', 'upheld', 'lapsed'])[1 + g % 3], now(), 'r-pl-' || g
       from generate_series(1, 3) g`,
      [me.id],
    );
    await db().query(
      `insert into governance_pledges (id, article, sovereign_id, body, status, created_at, receipt_id)
       select 'pledge-l' || g, 'axiom-1', $1, 'a lapsed pledge', 'lapsed', now(), 'r-pll-' || g from generate_series(1, 4) g`,
      [reporter.id],
    );
    await db().query(
      `insert into governance_pledge_backs (pledge_id, sovereign_id, at, receipt_id)
       select id, $1, now(), 'r-back-' || id from governance_pledges where id like 'pledge-%'`,
      [reporter.id],
    );
    await db().query(
      `insert into feedback (id, topic, body, reporter_kind, status, created_at, receipt_id)
       select 'fb-' || g, (array['bug', 'idea', 'privacy'])[1 + g % 3], 'a report', 'anonymous', 'open', now(), 'r-fb-' || g
       from generate_series(1, 9) g`,
    );
    await db().query(
      `insert into mind_stances (claim, sovereign_id, stance, reason, taken_at, receipt_id)
       select 'claim-' || g, $1, (array['agree', 'disagree'])[1 + g % 2], 'because', now(), 'r-st-' || g
       from generate_series(1, 5) g`,
      [me.id],
    );
    expect((await kept())['imprint_reports_open']).toBe(21);
    await expectKeptAndPublished();

    // Status changes move a row from one tally to another in the same statement.
    await db().query("update imprint_reports set status = 'closed' where id in ('rep-1', 'rep-2')");
    await db().query("update data_requests set status = 'withdrawn' where id like 'dr-1%'");
    await db().query(
      "update treasury_authorizations set approved = not approved where authorization_id like 'auth-1%'",
    );
    await db().query("update treasury_patrons set holder_kind = 'agent' where holder_ref = 'patron-1'");
    await db().query("update treasury_payments set amount_cents = amount_cents + 1 where id = 'pay-4'");
    await db().query("update governance_pledges set status = 'lapsed' where id = 'pledge-t1'");
    await db().query("update feedback set status = 'withdrawn', body = null where id in ('fb-1', 'fb-2')");
    await db().query("update mind_stances set stance = 'agree' where claim = 'claim-2'");
    await expectKeptAndPublished();

    // Deletions leave the figures at once.
    await db().query("delete from imprint_reports where id like 'rep-2%'");
    await db().query("delete from data_requests where kind = 'export'");
    await db().query("delete from treasury_payments where purpose = 'oracle'");
    await db().query('delete from treasury_authorizations where strategy is null');
    await db().query("delete from treasury_patrons where holder_kind = 'agent'");
    await db().query("delete from governance_pledge_backs where pledge_id like 'pledge-l%'");
    await db().query("delete from governance_pledges where id in ('pledge-l1', 'pledge-l2')");
    await db().query("delete from feedback where topic = 'bug'");
    await db().query("delete from mind_stances where claim = 'claim-3'");
    await expectKeptAndPublished();

    // A truncate takes each table's tallies with its rows, and counting starts again from there.
    for (const table of [
      'imprint_reports',
      'data_requests',
      'treasury_payments',
      'treasury_authorizations',
      'treasury_patrons',
      'governance_pledges',
      'feedback',
      'mind_stances',
    ])
      await db().query(`truncate ${table} cascade`);
    expect(await kept()).toEqual({});
    await expectKeptAndPublished();
    await db().query(
      `insert into data_requests (id, sovereign_id, kind, status, created_at, receipt_id) values ('dr-again', $1, 'export', 'pending', now(), 'r-again')`,
      [me.id],
    );
    expect(await kept()).toEqual({ 'data_requests:export:pending': 1 });
    await expectKeptAndPublished();
  });
});
