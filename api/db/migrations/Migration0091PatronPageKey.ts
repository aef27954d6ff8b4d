import { Migration } from '@mikro-orm/migrations';

/**
 * Listed patrons page by key (issue 20, point 6): /api/patrons answered the oldest 500 and no
 * more. Its order was (since, public_ref), which is not unique (a sovereign's public tag is four
 * characters, and a handle can spell one), and the one unique column, holder_ref, is a raw id
 * that a cursor must never carry. `page_key` is a random value of each row's own, derived from
 * nothing: a page's key is (since, page_key), unique, and says nothing about who, how many or in
 * what order anyone else became a patron. The listed index moves to that order.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0091PatronPageKey extends Migration {
  override name = 'Migration0091PatronPageKey';

  override up(): void {
    // A volatile default: every existing row gets its own value as the column is added.
    this.addSql(
      'alter table treasury_patrons add column page_key text not null default gen_random_uuid()::text',
    );
    this.addSql('drop index treasury_patrons_listed');
    this.addSql(
      'create unique index treasury_patrons_listed on treasury_patrons (since, page_key) where listed',
    );
  }
}
