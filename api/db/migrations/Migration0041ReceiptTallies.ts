import { Migration } from '@mikro-orm/migrations';

/**
 * Receipts by step without a scan (issue 20, point 7): /api/transparency grouped every receipt of
 * the log by step on each request. `receipt_tallies` keeps, per step, the receipts and those whose
 * subject was redacted, moved by statement-level triggers with transition tables in the writer's
 * own transaction (as migration 0022's tallies). A receipts statement already holds its day's
 * `log_days` row until commit, and the sequencer's the counter row, so the step's row lock adds
 * no new wait to the Record's writes.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0041ReceiptTallies extends Migration {
  override name = 'Migration0041ReceiptTallies';

  override up(): void {
    this.addSql(`create table receipt_tallies (
      step text primary key,
      receipts bigint not null,
      redacted bigint not null
    )`);
    this.addSql(`insert into receipt_tallies (step, receipts, redacted)
      select step, count(*), count(*) filter (where subject_redacted_at is not null) from receipts group by step`);
    const added =
      'select step, 1 as receipts, (subject_redacted_at is not null)::int as redacted from new_rows';
    const removed =
      'select step, -1 as receipts, -((subject_redacted_at is not null)::int) as redacted from old_rows';
    const apply = (rows: string) => `insert into receipt_tallies (step, receipts, redacted)
          select step, sum(receipts), sum(redacted) from (${rows}) x group by step
          having sum(receipts) <> 0 or sum(redacted) <> 0
          order by step
          on conflict (step) do update set receipts = receipt_tallies.receipts + excluded.receipts,
                                           redacted = receipt_tallies.redacted + excluded.redacted;`;
    this.addSql(`create function receipt_tally() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then ${apply(added)}
        elsif tg_op = 'UPDATE' then ${apply(`${added} union all ${removed}`)}
        else ${apply(removed)}
        end if;
        return null;
      end $$`);
    for (const [event, referencing] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ]) {
      this.addSql(
        `create trigger receipts_tally_${event} after ${event} on receipts referencing ${referencing} for each statement execute function receipt_tally()`,
      );
    }
  }
}
