import { Migration } from '@mikro-orm/migrations';

/**
 * The time of the newest imprint, kept beside the counter (issue 19: one clock): each process reads
 * the database's clock through an offset, so two hosts writing within a round trip of each other
 * could still stamp a later sequence a millisecond earlier. Kept under the counter's row lock, it
 * lets a batch stamp no imprint before the one sequenced ahead of it. SQL that PostgreSQL 15 and
 * PGlite both run.
 */
export class Migration0073RecordLastAt extends Migration {
  override name = 'Migration0073RecordLastAt';

  override up(): void {
    this.addSql(`alter table record_counter add column last_at timestamptz`);
    this.addSql(`update record_counter set last_at = (select max(created_at) from imprints) where id = 1`);
  }
}
