import { Migration } from '@mikro-orm/migrations';

/**
 * Federated cohorts without a scan (issue 20): /api/cohorts/federated and /api/state grouped every
 * row of `federation_relays` (every author every peer relayed) by (peer, author) on each request.
 * `federated_cohort_counts` keeps, per peer, UTC month and kind, how many remote authors were first
 * relayed by that peer in that month. A statement-level trigger with transition tables moves it in
 * the writer's own transaction, looking up only the (peer, author) pairs the statement touched:
 * each pair's first relay before the statement and after it (an index range on
 * `federation_relays_author`), -1 on the month it was, +1 on the month it is. A repeat relay moves
 * nothing, an older relay arriving later moves the author to its month, a delete or an update moves
 * it back or out; a count that reaches 0 is deleted, a truncate drops them all. An author's kind is
 * its ref's prefix (`agent:` an agent, any other a sovereign), as the view always read it.
 * SQL that PostgreSQL 15 and PGlite both run; one statement per addSql.
 */
const KIND = (author: string) => `case when ${author} like 'agent:%' then 'agent' else 'sovereign' end`;
const MONTH = (at: string) => `date_trunc('month', ${at} at time zone 'UTC')::date`;
const FIRST = (others: string) => `(select r.received_at from federation_relays r
    where r.peer = p.peer and r.author = p.author${others} order by r.received_at limit 1)`;
const COLUMNS = 'id, peer, author, received_at';

/**
 * Moves the counts of the pairs in `pairs`. The table before the statement is the table now without
 * `new_rows` (by id) and with `old_rows`; either may be absent from the trigger's event.
 */
function move(pairs: string, rows: { added: boolean; removed: boolean }): string {
  const without = rows.added ? ' and not exists (select 1 from new_rows n where n.id = r.id)' : '';
  const before = rows.removed
    ? `least(${FIRST(without)}, (select min(o.received_at) from old_rows o where o.peer = p.peer and o.author = p.author))`
    : FIRST(without);
  return `with p as (${pairs}),
      f as (select p.peer, ${KIND('p.author')} as kind, ${before} as was, ${FIRST('')} as is_now from p),
      d as (select peer, month, kind, sum(delta) as delta from (
              select peer, ${MONTH('was')} as month, kind, -1 as delta from f where was is not null
              union all select peer, ${MONTH('is_now')}, kind, 1 from f where is_now is not null) x
            group by 1, 2, 3 having sum(delta) <> 0),
      gone as (delete from federated_cohort_counts c using d
                where c.peer = d.peer and c.month = d.month and c.kind = d.kind and c.members + d.delta = 0
                returning c.peer, c.month, c.kind)
    insert into federated_cohort_counts as c (peer, month, kind, members)
      select d.peer, d.month, d.kind, d.delta from d
       where not exists (select 1 from gone g where g.peer = d.peer and g.month = d.month and g.kind = d.kind)
       order by 1, 2, 3
      on conflict (peer, month, kind) do update set members = c.members + excluded.members;`;
}

const PAIRS_OF = (rows: string) => `select distinct peer, author from (${rows}) x where author is not null`;

export class Migration0085FederatedCohorts extends Migration {
  override name = 'Migration0085FederatedCohorts';

  override up(): void {
    this.addSql(`create table federated_cohort_counts (
      peer text not null,
      month date not null,
      kind text not null check (kind in ('sovereign', 'agent')),
      members bigint not null,
      primary key (peer, month, kind)
    )`);
    // A pair's first relay, read by the trigger for the pairs a statement touched.
    this.addSql('create index federation_relays_author on federation_relays (peer, author, received_at)');
    this.addSql(`insert into federated_cohort_counts (peer, month, kind, members)
      select peer, month, kind, count(*) from (
        select peer, ${KIND('author')} as kind, ${MONTH('min(received_at)')} as month
          from federation_relays where author is not null group by peer, author) x
       group by 1, 2, 3 order by 1, 2, 3`);
    const changed = `(select ${COLUMNS} from new_rows except select ${COLUMNS} from old_rows)
      union all (select ${COLUMNS} from old_rows except select ${COLUMNS} from new_rows)`;
    this.addSql(`create function federated_cohorts_kept() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then ${move(PAIRS_OF('select peer, author from new_rows'), { added: true, removed: false })}
        elsif tg_op = 'UPDATE' then ${move(PAIRS_OF(changed), { added: true, removed: true })}
        elsif tg_op = 'DELETE' then ${move(PAIRS_OF('select peer, author from old_rows'), { added: false, removed: true })}
        else delete from federated_cohort_counts;
        end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'referencing new table as new_rows'],
      ['update', 'referencing old table as old_rows new table as new_rows'],
      ['delete', 'referencing old table as old_rows'],
      ['truncate', ''],
    ]) {
      this.addSql(
        `create trigger federation_relays_cohorts_${event} after ${event} on federation_relays ${referencing} for each statement execute function federated_cohorts_kept()`,
      );
    }
  }
}
