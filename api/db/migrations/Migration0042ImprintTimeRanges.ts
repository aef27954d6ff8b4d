import { Migration } from '@mikro-orm/migrations';

/**
 * Imprints by time without a scan (issue 20): the swarm, the pulse, the day's story, the season
 * and the metabolism read the imprints of a recent window (`created_at >= $1`), and with no index
 * on `created_at` each such read scanned the whole table. Imprints are appended in time order, so
 * a BRIN index (one summary per block range: a few pages for a million rows, nearly free to keep
 * on append) finds the window's blocks, and the read costs the window, not the history.
 */
export class Migration0042ImprintTimeRanges extends Migration {
  override name = 'Migration0042ImprintTimeRanges';

  override up(): void {
    this.addSql('create index imprints_created_at_brin on imprints using brin (created_at)');
  }
}
