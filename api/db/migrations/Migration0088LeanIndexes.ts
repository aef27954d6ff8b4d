import { Migration } from '@mikro-orm/migrations';

/**
 * Two indexes no read uses, which every imprint batch paid for (issue 20: imprint writes beside
 * pgbench at 8 connections). `imprints_author (author_kind, author_ref)`: every query by author
 * names `author_ref`, which `imprints_author_sequence (author_ref, sequence desc)` serves (a handle
 * and a sovereign id never coincide), and each batch wrote it twice per imprint, for the new row
 * and for the row the window's trim rewrites. `receipts_step (step)`: nothing reads receipts by
 * step through an index (a handful of values; the counts by step read the tallies or the whole
 * table). After a bench:scale run over every published GET on the 1,000,000-imprint Record, the
 * first had been scanned 3 times (an erasure's count, planned on it) and the second never.
 * SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0088LeanIndexes extends Migration {
  override name = 'Migration0088LeanIndexes';

  override up(): void {
    this.addSql('drop index if exists imprints_author');
    this.addSql('drop index if exists receipts_step');
  }
}
