import { Migration } from '@mikro-orm/migrations';

/**
 * A person may withdraw their own export or erasure request while it is pending (issue 22: an
 * irreversible step can be cancelled until a steward acts). The request stays on file, `withdrawn`,
 * with the time and its own receipt. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0071WithdrawnRequests extends Migration {
  override name = 'Migration0071WithdrawnRequests';

  override up(): void {
    this.addSql(`alter table data_requests drop constraint if exists data_requests_status_check`);
    this.addSql(
      `alter table data_requests add constraint data_requests_status_check check (status in ('pending', 'completed', 'declined', 'withdrawn'))`,
    );
  }
}
