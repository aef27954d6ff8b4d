import { Migration } from '@mikro-orm/migrations';

/**
 * Confluences are read from the Record on every presence, commons and due-feed request: the
 * roots sovereigns opened in the last day, then their threads by `reply_to`. Two indexes keep
 * that walk small however long the Record grows. No new table: a confluence is derived, not stored.
 */
export class Migration0018ConfluenceThreads extends Migration {
  override name = 'Migration0018ConfluenceThreads';

  override up(): void {
    this.addSql(`create index imprints_reply_to on imprints (reply_to) where reply_to is not null`);
    this.addSql(
      `create index imprints_sovereign_roots on imprints (created_at) where reply_to is null and author_kind = 'sovereign'`,
    );
  }
}
