import { Migration } from '@mikro-orm/migrations';

/**
 * The mind's changes without a window over every truth check (issue 20): /mind/feed.xml and
 * /mind/claim/{id} found each claim's first check and every change in whether it holds with a
 * `lag()` over the whole of `truth_checks`, which grows by a row per claim per verification run
 * (about 10,000 a day). Each check now says, as it is written, what it changed (`change`:
 * first_check, now_holds, no_longer_holds, or null when it held as the check before it), from
 * the claim's previous check (one read of `truth_checks_claim_at`) in a row trigger, so the
 * changes are read newest first through a partial index of the changed rows alone.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0077TruthChanges extends Migration {
  override name = 'Migration0077TruthChanges';

  override up(): void {
    this.addSql(`alter table truth_checks add column change text`);
    this.addSql(`update truth_checks t set change = c.kind
      from (select id, case when prev is null then 'first_check' when held then 'now_holds' else 'no_longer_holds' end as kind
              from (select id, held, lag(held) over (partition by claim order by checked_at, id) as prev from truth_checks) x
             where prev is null or prev <> held) c
     where t.id = c.id`);
    this.addSql(
      'create index truth_checks_changes on truth_checks (checked_at desc, id desc) where change is not null',
    );
    this.addSql(
      'create index truth_checks_claim_changes on truth_checks (claim, checked_at desc, id desc) where change is not null',
    );
    this.addSql(`create function truth_check_change() returns trigger language plpgsql as $$
      declare prev boolean;
      begin
        select held into prev from truth_checks
         where claim = new.claim and (checked_at, id) < (new.checked_at, new.id)
         order by checked_at desc, id desc limit 1;
        new.change := case when prev is null then 'first_check'
                           when prev = new.held then null
                           when new.held then 'now_holds' else 'no_longer_holds' end;
        return new;
      end $$`);
    this.addSql(`create trigger truth_checks_change before insert on truth_checks
      for each row execute function truth_check_change()`);
  }
}
