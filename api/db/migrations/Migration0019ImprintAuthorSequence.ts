import { Migration } from '@mikro-orm/migrations';

/**
 * The spam gate reads an author's newest imprints and counts their recent ones on every write
 * (`author_ref = $1 order by sequence desc`). The older (author_kind, author_ref) index cannot
 * serve that shape, so each imprint scanned the whole table; this index makes the gate's reads
 * proportional to the author's own imprints. SQL that PostgreSQL 15 and PGlite both run.
 */
export class Migration0019ImprintAuthorSequence extends Migration {
  override name = 'Migration0019ImprintAuthorSequence';

  override up(): void {
    this.addSql(`create index imprints_author_sequence on imprints (author_ref, sequence desc)`);
  }
}
