import { Migration } from '@mikro-orm/migrations';

/**
 * The roster's order as an index (issue 20, point 6): /api/citizens pages the sovereigns listed
 * (not erased) by key, so a page reads the page, never an offset. Its totals are the tallies
 * /api/stats reads (migration 0032: one definition of who is counted).
 */
export class Migration0040RosterTallies extends Migration {
  override name = 'Migration0040RosterTallies';

  override up(): void {
    this.addSql('create index sovereigns_roster on sovereigns (tag, id) where erased_at is null');
  }
}
