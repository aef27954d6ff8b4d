import { Migration } from '@mikro-orm/migrations';

/**
 * A sovereign's due items without a scan (issue 20): /sovereign/due.ics and /sovereign/due.xml
 * read every open pact in due order and kept those the sovereign wrote or staked on, and every open
 * prophecy in due order for theirs, so each calendar poll cost the open pacts and prophecies of
 * everyone. The open pacts are now read by author along one index and through the sovereign's own
 * stakes along another; the prophecies through prophecies_actor_resolved (migration 0079), which the
 * query now names the forecaster's kind for. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0094DueByKey extends Migration {
  override name = 'Migration0094DueByKey';

  override up(): void {
    this.addSql(`create index pacts_author_open on pacts (author_id, due_at, id) where status = 'open'`);
    this.addSql('create index pact_stakes_sovereign on pact_stakes (sovereign_id, pact_id)');
  }
}
