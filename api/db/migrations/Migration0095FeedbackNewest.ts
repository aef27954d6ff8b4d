import { Migration } from '@mikro-orm/migrations';

/**
 * A reporter's own reports page by key (issue 20, point 6): /feedback/mine read every report of
 * the reporter along feedback_reporter and sorted them for the newest 200, and no more. One index
 * in the page's order, over the reports it lists (withdrawn ones are not), makes a page cost its
 * own rows. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0095FeedbackNewest extends Migration {
  override name = 'Migration0095FeedbackNewest';

  override up(): void {
    this
      .addSql(`create index feedback_reporter_newest on feedback (reporter_kind, reporter_ref, created_at desc, id desc)
      where status <> 'withdrawn'`);
  }
}
